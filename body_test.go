package gamedata

import (
	"bytes"
	"io"
	"net/http"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunked is a response whose length is not known in advance, read in
// small pieces as a network would deliver it.
func chunked(body []byte) *http.Response {
	return &http.Response{ContentLength: -1, Body: io.NopCloser(iotest.HalfReader(bytes.NewReader(body)))}
}

func TestReadBodyWithoutContentLength(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 100_000) // four pooled chunks
	for _, tt := range []struct {
		name  string
		body  []byte
		limit int64
		err   error
	}{
		{"empty", nil, 10, nil},
		{"small", []byte(`{"id":"s1"}`), 100, nil},
		{"several chunks", big, int64(len(big)), nil},
		{"over the limit", big, int64(len(big)) - 1, ErrResponseTooLarge},
		{"after a refused one", big, int64(len(big)), nil},
	} {
		got, err := readBody(chunked(tt.body), tt.limit)
		if tt.err != nil {
			assert.ErrorIs(t, err, tt.err, tt.name)
		} else {
			require.NoError(t, err, tt.name)
			assert.Equal(t, len(tt.body), len(got), tt.name)
			assert.True(t, bytes.Equal(tt.body, got), tt.name)
		}
		// Whatever the read did, its chunks go back to the pool whole.
		var taken []*[]byte
		for range 8 {
			c := chunkPool.Get().(*[]byte)
			assert.Equal(t, cap(*c), len(*c), tt.name)
			taken = append(taken, c)
		}
		for _, c := range taken {
			chunkPool.Put(c)
		}
	}
}
