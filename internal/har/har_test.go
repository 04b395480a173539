package har

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		body     []byte
		encoding string
	}{
		{"JSON", []byte(`{"title":"\u001b[31m"}` + "\n"), ""},
		{"text with controls", []byte("a\x1b[31mb\x00c"), ""},
		{"empty", nil, ""},
		{"not UTF-8", []byte{0x1f, 0x8b, 0xff, 0x00}, "base64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewContent(tc.body, "application/json")
			assert.Equal(t, tc.encoding, c.Encoding)
			assert.Equal(t, len(tc.body), c.Size)
			got, err := c.Bytes()
			require.NoError(t, err)
			assert.Equal(t, string(tc.body), string(got))
		})
	}
}

func TestHeadersAndQuery(t *testing.T) {
	t.Parallel()
	h := http.Header{"Etag": {`"x"`}, "Cache-Control": {"no-cache"}, "Vary": {"A", "B"}}
	list := Headers(h)
	assert.Equal(t, []NameValue{{"Cache-Control", "no-cache"}, {"Etag", `"x"`}, {"Vary", "A"}, {"Vary", "B"}}, list)
	assert.Equal(t, h, Header(list))
	assert.Equal(t, []NameValue{}, Headers(nil))
	assert.Equal(t, []NameValue{{"q", "a b"}, {"filter", "z"}, {"filter", "a"}, {"bad", "%zz"}, {"flag", ""}},
		Query("q=a+b&filter=z&&filter=a&bad=%zz&flag"))
}
