package watch

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// jsonCheck agrees with json.Valid on every body, written in pieces of
// any size: blanks collapsed between tokens, never within a string.
func TestJSONCheckAgreesWithValid(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"a": [1, 2, {"b": null}], "c": "x  y"}`,
		`  {"a":1}  ` + strings.Repeat(" \n\t\r", 1000),
		`"a \" b \\"`,
		`"a \\" b"`,
		`[1, 2`,
		`{"a" 1}`,
		`{"a":1}{"b":2}`,
		`1 2`,
		`tru e`,
		`"x  y`,
		``,
		`   `,
		`[]`,
		`{"a":"\u00e9  "}`,
		`{"a":1,}`,
	} {
		for _, size := range []int{1, 2, 7, 4096} {
			c := newJSONCheck()
			for b := []byte(body); len(b) > 0; {
				n := min(size, len(b))
				c.Write(b[:n])
				b = b[n:]
			}
			assert.Equal(t, json.Valid([]byte(body)), c.result(), "%q in pieces of %d", body, size)
		}
	}
}

// A body abandoned before its end stops the check: nothing waits on it.
func TestJSONCheckAbandoned(t *testing.T) {
	t.Parallel()
	c := newJSONCheck()
	c.Write([]byte(`{"a": [`))
	c.abandon()
	c.Write([]byte(`1]}`))
	assert.False(t, <-c.valid)
}

// BenchmarkWatchBody reads a 32 MB body (the client's limit, what a gzip
// bomb inflates to) plainly and through the watch's observed transport:
// the bytes allocated a read are to be of the same order, the body never
// held a second time.
func BenchmarkWatchBody(b *testing.B) {
	body := append(append([]byte(`{"items":[`), bytes.Repeat([]byte(" "), 32<<20)...), `]}`...)
	read := func(b *testing.B, wrap func(io.ReadCloser) io.ReadCloser) {
		b.ReportAllocs()
		buf := make([]byte, 32<<10)
		for b.Loop() {
			r := wrap(io.NopCloser(bytes.NewReader(body)))
			for {
				if _, err := r.Read(buf); err != nil {
					break
				}
			}
			r.Close()
		}
	}
	for range 3 { // rounds interleaved, so that a load on the machine falls on both
		b.Run("plain", func(b *testing.B) { read(b, func(r io.ReadCloser) io.ReadCloser { return r }) })
		b.Run("observed", func(b *testing.B) {
			read(b, func(r io.ReadCloser) io.ReadCloser {
				resp, _ := observed{next: bodyOf{r}, seen: func(*http.Request, int) {}}.RoundTrip(&http.Request{})
				return resp.Body
			})
		})
	}
}

// bodyOf is a transport that answers every request with r as a 200's body.
type bodyOf struct{ r io.ReadCloser }

func (t bodyOf) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Body: t.r, ContentLength: -1}, nil
}
