package attempt

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/clock/clocktest"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	lo, hi := 100*time.Millisecond, time.Second
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		want *= time.Millisecond
		for range 20 {
			d := Backoff(lo, hi, n)
			assert.GreaterOrEqual(t, d, want/2, "retry %d", n)
			assert.LessOrEqual(t, d, want, "retry %d", n)
		}
	}
	assert.Equal(t, time.Duration(0), Backoff(0, 0, 3))
}

func TestClassify(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		status          int
		retryAfter      string
		retry, throttle bool
		wait            time.Duration
	}{
		{200, "", false, false, 0},
		{404, "", false, false, 0},
		{501, "", false, false, 0},
		{500, "7", true, false, 0},
		{502, "", true, false, 0},
		{503, "", true, false, 0},
		{503, "7", true, true, 7 * time.Second},
		{429, "", true, true, 0},
		{429, "7", true, true, 7 * time.Second},
		{429, now.Add(time.Minute).Format(http.TimeFormat), true, true, time.Minute},
		{429, now.Add(-time.Hour).Format(http.TimeFormat), true, true, 0},
		{429, "-3", true, true, 0},
		{429, strconv.FormatInt(1<<62, 10), true, true, MaxRetryAfter},
	} {
		got := Classify(tt.status, http.Header{"Retry-After": {tt.retryAfter}}, now)
		assert.Equal(t, Verdict{Retry: tt.retry, Throttle: tt.throttle, Wait: tt.wait}, got, "%d %q", tt.status, tt.retryAfter)
	}
}

// chunked is a response whose length is not known in advance, read in
// small pieces as a network would deliver it.
func chunked(body []byte) *http.Response {
	return &http.Response{ContentLength: -1, Body: io.NopCloser(iotest.HalfReader(bytes.NewReader(body)))}
}

func TestReadWithoutContentLength(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 100_000)
	for _, tt := range []struct {
		name     string
		body     []byte
		limit    int64
		tooLarge bool
	}{
		{"empty", nil, 10, false},
		{"small", []byte(`{"id":"s1"}`), 100, false},
		{"a megabyte", big, int64(len(big)), false},
		{"over the limit", big, int64(len(big)) - 1, true},
	} {
		got, err := Read(chunked(tt.body), tt.limit, func() {})
		if tt.tooLarge {
			var tl *TooLargeError
			assert.ErrorAs(t, err, &tl, tt.name)
		} else {
			require.NoError(t, err, tt.name)
			assert.Equal(t, len(tt.body), len(got), tt.name)
			assert.True(t, bytes.Equal(tt.body, got), tt.name)
		}
	}
}

// The stall timeout bounds silence, not the whole read: a body that keeps
// coming, however long it takes, is read whole.
func TestStallWatchBoundsSilenceOnly(t *testing.T) {
	t.Parallel()
	const d = 30 * time.Second
	for _, tt := range []struct {
		gap     time.Duration
		stalled bool
	}{{d - time.Millisecond, false}, {d, true}} {
		clk := clocktest.New()
		var cause error
		w := NewStallWatch(clk, d, func(err error) { cause = err })
		pieces := strings.Split(strings.Repeat("0123456789", 100), "")
		body := &slowBody{pieces: pieces, before: func() { clk.Advance(tt.gap) }}
		_, err := Read(&http.Response{ContentLength: -1, Body: body}, 1<<20, w.Kick)
		require.NoError(t, err)
		w.Stop()
		if tt.stalled {
			var stall *StallError
			assert.ErrorAs(t, cause, &stall, "gap %s", tt.gap)
			assert.ErrorIs(t, cause, os.ErrDeadlineExceeded)
		} else {
			assert.NoError(t, cause, "gap %s: %d pieces", tt.gap, len(pieces))
		}
	}
}

// slowBody returns one piece a read, calling before each.
type slowBody struct {
	pieces []string
	before func()
}

func (b *slowBody) Read(p []byte) (int, error) {
	if len(b.pieces) == 0 {
		return 0, io.EOF
	}
	b.before()
	n := copy(p, b.pieces[0])
	b.pieces = b.pieces[1:]
	return n, nil
}

func (b *slowBody) Close() error { return nil }

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"https://h.example/a", "https://H.example:443/b"},
		{"http://h.example/", "http://h.example:80/x"},
	}
	for _, p := range same {
		assert.Equal(t, Origin(mustURL(t, p[0])), Origin(mustURL(t, p[1])), p)
	}
	different := [][2]string{
		{"https://h.example/", "http://h.example/"},
		{"https://h.example/", "https://h.example:8443/"},
		{"https://h.example/", "https://evil.example/"},
		{"https://h.example/", "https://h.example.evil.example/"},
	}
	for _, p := range different {
		assert.NotEqual(t, Origin(mustURL(t, p[0])), Origin(mustURL(t, p[1])), p)
	}
}
