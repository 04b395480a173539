package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watch prints every game as added in its first round, then a game the
// twin adds, one NDJSON line as each change is seen, until interrupted;
// interrupted, it exits 0. The test waits on the lines themselves, never
// on the clock.
func TestWatch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := newLineWriter(), newLineWriter()
	done := make(chan int, 1)
	ended, stop := context.WithCancel(context.Background())
	go func() {
		done <- run(ctx, []string{"--base-url", twin.URL, "--rate", "0", "watch", "--kind", "game", "--every", "20ms"}, stdout, stderr)
		stop()
	}()
	change := func() map[string]any {
		t.Helper()
		var m map[string]any
		line := stdout.next(t, ended)
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		return m
	}
	for range games {
		c := change()
		assert.Equal(t, "added", c["op"])
		assert.Nil(t, c["old"])
	}
	require.NoError(t, twin.AddPackage("game", "brand-new", "Brand New"))
	c := change()
	assert.Equal(t, "added", c["op"])
	assert.Equal(t, "brand-new", c["new"].(map[string]any)["ident"])
	cancel()
	assert.Equal(t, 0, <-done, "interrupted, a watch is over, not failed")
	assert.Empty(t, stderr.String())
}

// startWatch starts watch with args against base and returns its stdout,
// its stderr, a context that ends when it returns, a function that
// interrupts it and returns its exit status.
func startWatch(t *testing.T, base string, args ...string) (stdout, stderr *lineWriter, ended context.Context, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(guard(t))
	stdout, stderr = newLineWriter(), newLineWriter()
	done := make(chan int, 1)
	ended, over := context.WithCancel(context.Background())
	go func() {
		done <- run(ctx, append([]string{"--base-url", base, "--rate", "0", "watch", "--every", "20ms"}, args...), stdout, stderr)
		over()
	}()
	t.Cleanup(cancel)
	return stdout, stderr, ended, func() int { cancel(); return <-done }
}

// A package that is not found is said at the first poll, once, and when
// that changes: it appears, and its added line follows.
func TestWatchSaysNotFound(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	stdout, stderr, ended, stop := startWatch(t, twin.URL, "package", "game/nope")
	assert.Equal(t, "gamedata: watch: package game/nope is not found (404); watching for it to appear", stderr.next(t, ended))
	require.NoError(t, twin.AddPackage("game", "nope", "Nope"))
	assert.Equal(t, "gamedata: watch: package game/nope is found", stderr.next(t, ended))
	assert.Contains(t, stdout.next(t, ended), `"op":"added"`)
	assert.Equal(t, 0, stop())
	assert.Equal(t, 1, strings.Count(stderr.String(), "not found"), "said once: %s", stderr.String())
}

// A streak of failed polls is said once, at its first failure, and its
// end too; a Retry-After that delays the watch is said with it.
func TestWatchSaysAFailureStreakOnce(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		faults gamedatatest.Faults
		args   []string
		what   string
		says   string
	}{
		{"a package, refused", refused(), []string{"package", "game/GAME"}, "package game/GAME", "400 Bad Request"},
		{"the directory, refused", refused(), []string{"--kind", "game"}, "the game directory", "400 Bad Request"},
		{"a package, delayed", gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault429}, RetryAfter: time.Hour},
			[]string{"package", "game/GAME"}, "package game/GAME", "the service asked to wait 1h0m0s, longer than a watch waits"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin := newTwin(t)
			game := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0].Ident
			fi := gamedatatest.InjectFaults(twin.Handler(), tt.faults)
			s := httptest.NewServer(fi)
			t.Cleanup(s.Close)
			t.Cleanup(fi.Close)
			what := strings.ReplaceAll(tt.what, "GAME", game)
			args := slices.Clone(tt.args)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "GAME", game)
			}
			stdout, stderr, ended, stop := startWatch(t, s.URL, args...)
			first := stderr.next(t, ended)
			assert.Contains(t, first, "gamedata: watch: a poll of "+what+" failed: ")
			assert.Contains(t, first, tt.says)
			assert.Contains(t, first, "polling on, and saying when polls succeed again")
			assert.Equal(t, 1, strings.Count(first, "gamedata:"), "one prefix: %s", first)
			assert.NotContains(t, first, "item ", "the package is named, not an index")
			assert.NotContains(t, first, " ;", "no space after the service's body")
			require.NoError(t, fi.WaitRequests(guard(t), len(fi.Requests())+8), "more polls fail")
			fi.Set(gamedatatest.Faults{})
			assert.Regexp(t, `^gamedata: watch: polls of `+regexp.QuoteMeta(what)+` succeed again, after \d+ failed polls$`, stderr.next(t, ended))
			assert.Contains(t, stdout.next(t, ended), `"op":"added"`)
			assert.Equal(t, 0, stop())
			assert.Equal(t, 1, strings.Count(stderr.String(), "failed: "), "the streak is said once: %s", stderr.String())
		})
	}
}

// refused are faults that refuse every request with 400, which the client
// does not retry: each poll fails at once.
func refused() gamedatatest.Faults {
	return gamedatatest.Faults{Rate: 1, Answer: func(w http.ResponseWriter, _ *http.Request, _ gamedatatest.Response) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte("{\"error\":\"refused\"}\n")) // as a JSON encoder ends it
	}}
}

// While every request fails, no poll succeeds, whatever the fault: a
// cut body comes after a 200, and is no answer. The end of the streak is
// said only once the faults stop.
func TestWatchSaysNoRecoveryWhilePollsFail(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	game := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0].Ident
	cut := gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultTruncate}}
	fi := gamedatatest.InjectFaults(twin.Handler(), cut)
	s := httptest.NewServer(fi)
	t.Cleanup(s.Close)
	t.Cleanup(fi.Close)
	stdout, stderr, ended, stop := startWatch(t, s.URL, "package", "game/"+game)
	assert.Contains(t, stderr.next(t, ended), "gamedata: watch: a poll of package game/"+game+" failed: ")
	// The client sends an attempt only once it is done with the one
	// before: two more requests mean the next poll's first cut 200 has
	// been seen whole.
	require.NoError(t, fi.WaitRequests(guard(t), len(fi.Requests())+2), "the next poll fails too")
	assert.NotContains(t, stderr.String(), "polls of", "a recovery said while every poll failed")
	fi.Set(gamedatatest.Faults{})
	assert.Regexp(t, `^gamedata: watch: polls of package game/`+regexp.QuoteMeta(game)+` succeed again, after \d+ failed polls?$`, stderr.next(t, ended))
	assert.Contains(t, stdout.next(t, ended), `"op":"added"`)
	assert.Equal(t, 0, stop())
}
