package main

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestTopGames is a user's test of their own code, topGames, against what
// the service really answers: its first run records the answers, and every
// run after replays them from the file, offline. A user keeps the file in
// testdata and commits it (it is scrubbed of credentials), and gives the
// service's base URL; here the file goes to a temporary directory and a
// twin stands for the service, closed before the second run, so that the
// test shows both runs offline.
func TestTopGames(t *testing.T) {
	live := gamedatatest.NewServer() // the service, as far as this test knows
	defer live.Close()
	baseURL := live.URL
	path := filepath.Join(t.TempDir(), "top-games.har")
	var runs []string
	for run := range 2 {
		if run == 1 {
			live.Close() // every run after the first is offline
		}
		rec, err := gamedatatest.OpenRecording(path, gamedatatest.ModeOnce)
		if err != nil {
			t.Fatal(err)
		}
		client, err := gamedata.NewClient(baseURL,
			gamedata.WithHTTPClient(&http.Client{Transport: rec.Transport(nil)}))
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := topGames(context.Background(), client, 5, &out); err != nil {
			t.Fatal(err)
		}
		// A request the file holds no answer for fails the test; Save
		// writes the file on the first run only.
		rec.CheckMatched(t)
		if err := rec.Save(); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, out.String())
	}
	if runs[1] != runs[0] {
		t.Errorf("replayed:\n%s\nrecorded:\n%s", runs[1], runs[0])
	}
}

// recorded records topGames against a twin into a new file, closes the
// twin and returns the file's path and what topGames printed.
func recorded(t *testing.T) (path, printed string) {
	t.Helper()
	live := gamedatatest.NewServer()
	defer live.Close()
	path = filepath.Join(t.TempDir(), "top-games.har")
	rec, err := gamedatatest.OpenRecording(path, gamedatatest.ModeOnce)
	require.NoError(t, err)
	client, err := gamedata.NewClient(live.URL, gamedata.WithHTTPClient(&http.Client{Transport: rec.Transport(nil)}),
		gamedata.WithRateLimit(rate.Inf, 1))
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, topGames(context.Background(), client, 5, &out))
	require.NoError(t, rec.Save())
	return path, out.String()
}

// A twin serves the recording, failing every request's first attempt:
// the client's retries recover, and topGames prints what was recorded.
func TestTopGamesReplayedUnderFaults(t *testing.T) {
	path, want := recorded(t)
	require.Equal(t, 5, strings.Count(want, "\n"))

	rec, err := gamedatatest.OpenRecording(path, gamedatatest.ModeNone)
	if err != nil {
		t.Fatal(err)
	}
	twin := gamedatatest.NewServer(gamedatatest.WithRecording(rec),
		gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Attempts: 1}))
	defer twin.Close()
	// The twin is local: the client need not pause between attempts.
	client, err := gamedata.NewClient(twin.URL, gamedata.WithRateLimit(rate.Inf, 1), gamedata.WithBackoff(0, 0))
	require.NoError(t, err)
	var out strings.Builder
	require.NoError(t, topGames(context.Background(), client, 5, &out))
	assert.Equal(t, want, out.String())
	rec.CheckMatched(t)
	faults := 0
	for _, r := range twin.Requests() {
		if r.Fault != 0 {
			faults++
		}
	}
	assert.Equal(t, 6, faults, "the dashboard's first attempt and each package's failed")
}

// Asked for more than was recorded, the replay misses: topGames fails,
// naming the request, and CheckMatched would fail the test.
func TestTopGamesMissesWhatWasNotRecorded(t *testing.T) {
	path, _ := recorded(t)
	rec, err := gamedatatest.OpenRecording(path, gamedatatest.ModeNone)
	require.NoError(t, err)
	client, err := gamedata.NewClient("http://service.invalid", gamedata.WithHTTPClient(&http.Client{Transport: rec.Transport(nil)}))
	require.NoError(t, err)
	err = topGames(context.Background(), client, 6, &strings.Builder{})
	require.ErrorIs(t, err, gamedata.ErrNotFound)
	assert.ErrorContains(t, err, `404 Not Found: {"error":"recording miss: GET /api/dashb`, "the start of the body, which the error clips")
	assert.Equal(t, []string{"GET /api/dashboard?kind=game&page=1&pageSize=6&sort=players"}, rec.Unmatched())
}

func TestRunOffline(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-top", "3"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "in-process twin")
	assert.Regexp(t, `^1\. .+ \(game/[^)]+\): (\d+|null) players, peak (\d+|null)\n2\. .+\n3\. .+\n$`, stdout.String())
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"-no-such-flag"}, {"extra"}, {"-top", "0"}, {"-top", "101"}, {"-base-url", "::not a url"}} {
		var stdout, stderr bytes.Buffer
		assert.Error(t, run(context.Background(), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, stdout.String())
	}
}
