package gamedata

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Untrusted keeps the text as sent and shows it only sanitized
// (internal/sanitize tests what the sanitizer removes).
func TestUntrustedString(t *testing.T) {
	t.Parallel()
	in := "\x1b[31mRed\x1b[0m Alert \u202eevil"
	u := NewUntrusted(in)
	assert.Equal(t, "Red Alert evil", u.String())
	assert.Equal(t, in, u.Unsanitized(), "the text as sent")
}

func TestUntrustedJSON(t *testing.T) {
	t.Parallel()
	var u Untrusted
	require.NoError(t, json.Unmarshal([]byte(`"\u001b[31mhi"`), &u))
	assert.Equal(t, "\x1b[31mhi", u.Unsanitized())
	b, err := json.Marshal(u)
	require.NoError(t, err)
	assert.Equal(t, `"\u001b[31mhi"`, string(b), "marshalling keeps the text as sent")
}
