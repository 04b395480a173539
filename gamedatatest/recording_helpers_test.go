package gamedatatest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// The helpers of the recording tests, which use the SDK as a user does:
// a client whose transport is a recording's, against a twin.

// clientThrough returns a client of the service at baseURL whose requests
// go through rt: retried at once, and not rate limited.
func clientThrough(t testing.TB, baseURL string, rt http.RoundTripper, opts ...gamedata.Option) *gamedata.Client {
	t.Helper()
	c, err := gamedata.NewClient(baseURL, append([]gamedata.Option{
		gamedata.WithHTTPClient(&http.Client{Transport: rt}),
		gamedata.WithRateLimit(rate.Inf, 1),
		gamedata.WithBackoff(0, 0),
	}, opts...)...)
	require.NoError(t, err)
	return c
}

// openRecording opens the recording at path in mode m, failing the test
// on an error.
func openRecording(t testing.TB, path string, m gamedatatest.Mode, opts ...gamedatatest.RecordingOption) *gamedatatest.Recording {
	t.Helper()
	rec, err := gamedatatest.OpenRecording(path, m, opts...)
	require.NoError(t, err)
	return rec
}

// harPath is a recording's path in the test's temporary directory.
func harPath(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "rec.har")
}

// record runs calls against twin through a new recording at path, in
// ModeOnce, saves it and returns the transcript of the calls.
func record(t testing.TB, twin *gamedatatest.Server, path string, calls func(*gamedata.Client) []string, opts ...gamedatatest.RecordingOption) []string {
	t.Helper()
	rec := openRecording(t, path, gamedatatest.ModeOnce, opts...)
	got := calls(clientThrough(t, twin.URL, rec.Transport(twin.Client().Transport)))
	require.NoError(t, rec.Save())
	return got
}

// harEntry is what the tests read of an entry of a saved recording.
type harEntry struct {
	Request struct {
		Method  string
		URL     string
		Headers []struct{ Name, Value string }
	}
	Response struct {
		Status  int
		Headers []struct{ Name, Value string }
		Content struct {
			Text, Encoding, MimeType string
		}
	}
	Route    string `json:"_route"`
	MatchKey string `json:"_matchKey"`
	Sequence int    `json:"_sequence"`
}

// header is the first value of the named header of an entry's response,
// or "".
func (e harEntry) header(name string) string {
	for _, h := range e.Response.Headers {
		if http.CanonicalHeaderKey(h.Name) == http.CanonicalHeaderKey(name) {
			return h.Value
		}
	}
	return ""
}

// readEntries reads the entries of the recording saved at path.
func readEntries(t testing.TB, path string) []harEntry {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var f struct{ Log struct{ Entries []harEntry } }
	require.NoError(t, json.Unmarshal(b, &f))
	return f.Log.Entries
}

// packagesOf returns the refs of the first n games of twin's catalogue.
func packagesOf(twin *gamedatatest.Server, n int) []gamedata.PackageRef {
	var refs []gamedata.PackageRef
	for _, e := range twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}})[:n] {
		refs = append(refs, gamedata.PackageRef{Kind: e.Kind, Ident: e.Ident})
	}
	return refs
}

// tour reads a bit of every kind of endpoint, some of it concurrently,
// and returns what it read, one line a result, in an order of its own.
func tour(refs []gamedata.PackageRef) func(*gamedata.Client) []string {
	return func(c *gamedata.Client) []string {
		ctx := context.Background()
		var out []string
		for e, err := range c.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{PageSize: 7}}, nil) {
			out = append(out, line(e.Ident, err))
		}
		for p, err := range c.Packages.GetMany(ctx, refs, 4) {
			if err != nil {
				out = append(out, line(nil, err))
				continue
			}
			out = append(out, string(p.JSON()))
		}
		h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: "24h"})
		if err == nil {
			out = append(out, line(len(h.Points), nil))
		} else {
			out = append(out, line(nil, err))
		}
		s, err := c.Search(ctx, &gamedata.SearchOptions{Query: "a"})
		if err == nil {
			out = append(out, string(s.JSON()))
		} else {
			out = append(out, line(nil, err))
		}
		return out
	}
}

func line(v any, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprint(v)
}
