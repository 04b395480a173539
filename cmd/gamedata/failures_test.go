package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
)

// stallAfter serves twin through an injector that answers the first n
// requests and stalls every later one until the client goes away: a
// command is then cut at a known point.
func stallAfter(t *testing.T, twin *gamedatatest.Server, n int64) (*gamedatatest.FaultInjector, string) {
	t.Helper()
	var seen atomic.Int64
	fi := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{
		Rate:  1,
		Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders},
		Match: func(*http.Request) bool { return seen.Add(1) > n },
	})
	s := httptest.NewServer(fi)
	t.Cleanup(s.Close)
	t.Cleanup(fi.Close)
	return fi, s.URL
}

// An interrupted command says "interrupted" and what it kept, never a raw
// "context canceled", and exits 130. The test cancels the command's
// context as main's signal handler does, once the command waits on a
// request that never ends.
func TestInterruptedCommandsSayWhatWasKept(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "games.csv")
	db := filepath.Join(t.TempDir(), "g.db")
	for _, tt := range []struct {
		name     string
		answered int64 // requests answered before the command hangs
		args     []string
		says     string
		printed  int // NDJSON lines on stdout
	}{
		{"get", 0, []string{"get", "package", "game/1337"}, "gamedata: interrupted\n", 0},
		// The first page, then the walk's pages 1 and 2.
		{"list --all", 3, []string{"list", "--all", "--page-size", "10"}, "gamedata: interrupted; 20 records printed, each whole\n", 20},
		{"orgs --all", 3, []string{"orgs", "--all", "--page-size", "2"}, "gamedata: interrupted; 4 records printed, each whole\n", 4},
		// The first page, the walk's, then five detail records.
		{"export --out", 7, []string{"export", "--concurrency", "1", "-o", "csv", "--out", out},
			"gamedata: export: 5 written, 0 skipped, 0 already there, of 29 entries\n" +
				"gamedata: interrupted; 5 rows written to " + out + ", each whole; run again with --resume to continue\n", 0},
		{"export", 7, []string{"export", "--concurrency", "1"},
			"gamedata: export: 5 written, 0 skipped, 0 already there, of 29 entries\n" +
				"gamedata: interrupted; 5 records printed, each whole\n", 5},
		{"sync", 3, []string{"sync", "--no-cache", "--db", db}, "gamedata: interrupted; what was fetched is kept; run sync again to go on\n", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin := newTwin(t)
			fi, base := stallAfter(t, twin, tt.answered)
			ctx, cancel := context.WithCancel(guard(t))
			defer cancel()
			go func() {
				if fi.WaitRequests(ctx, int(tt.answered)+1) == nil {
					cancel()
				}
			}()
			var stdout, stderr bytes.Buffer
			code := run(ctx, append([]string{"--base-url", base, "--rate", "0"}, tt.args...), &stdout, &stderr)
			assert.Equal(t, message.ExitInterrupted, code, stderr.String())
			assert.NotContains(t, stderr.String(), "context canceled")
			assert.True(t, strings.HasSuffix(stderr.String(), tt.says), "stderr ends with %q:\n%s", tt.says, stderr.String())
			assert.Equal(t, tt.printed, strings.Count(stdout.String(), "\n"), stdout.String())
		})
	}
}
