package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trickle is a service whose every answer sends one byte of its body
// a tick, for as long as the client listens: a body that would take hours.
func trickle(t *testing.T, tick time.Duration) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		ticker := time.NewTicker(tick)
		defer ticker.Stop()
		for {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-ticker.C:
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// --timeout bounds the whole command: a body that trickles forever ends
// in an error that names the bound.
func TestTimeoutEndsATrickle(t *testing.T) {
	t.Parallel()
	base := trickle(t, 5*time.Millisecond)
	code, _, errOut := cli(t, base, "--timeout", "200ms", "get", "package", "game/x")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "--timeout")
}

// A command that reads a record or a page is bounded by default; a long
// job is not; --timeout, given, is the bound either way, 0 for none. The
// bound is in the options once flags are parsed, and in the context the
// command runs with.
func TestDefaultTimeout(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"get", "package", "game/x"}, defaultTimeout},
		{[]string{"get", "server", "1"}, defaultTimeout},
		{[]string{"search", "miner"}, defaultTimeout},
		{[]string{"activity"}, defaultTimeout},
		{[]string{"analytics", "org", "o"}, defaultTimeout},
		{[]string{"list"}, defaultTimeout},
		{[]string{"orgs"}, defaultTimeout},
		{[]string{"chart", "activity", "--term"}, defaultTimeout},
		{[]string{"list", "--all"}, 0},
		{[]string{"orgs", "--all"}, 0},
		{[]string{"export"}, 0},
		{[]string{"sync", "--db", "x.sqlite"}, 0},
		{[]string{"watch"}, 0},
		{[]string{"get", "package", "game/x", "--timeout", "0"}, 0},
		{[]string{"--timeout", "0", "search", "x"}, 0},
		{[]string{"get", "package", "game/x", "--timeout", "5s"}, 5 * time.Second},
		{[]string{"list", "--all", "--timeout", "1h"}, time.Hour},
		{[]string{"--timeout", "3m", "export"}, 3 * time.Minute},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		assert.Equal(t, tt.want, p.common.Timeout, "%v", tt.args)
		assert.Equal(t, tt.want > 0, p.bounded, "%v: the command runs with a deadline", tt.args)
	}
}
