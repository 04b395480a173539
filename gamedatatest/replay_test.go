package gamedatatest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// replaying returns a twin of another seed that serves the recording at
// path, with opts, and the recording.
func replaying(t *testing.T, path string, opts ...gamedatatest.Option) (*gamedatatest.Server, *gamedatatest.Recording) {
	t.Helper()
	rec := openRecording(t, path, gamedatatest.ModeNone)
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSeed(7), gamedatatest.WithRecording(rec)}, opts...)...)
	t.Cleanup(twin.Close)
	return twin, rec
}

// getRaw fetches path from the server at base through rt, following no
// redirect, with header.
func getRaw(t *testing.T, rt http.RoundTripper, base, path string, header http.Header) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	c := &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, body
}

// A recording replayed by a twin of another seed, with the recording's
// twin gone, under faults that fail each URL's first two attempts: the
// client recovers and reads what was recorded.
func TestReplayServesTheRecordingUnderFaults(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(30, 5, 5))
	refs := packagesOf(live, 6)
	path := harPath(t)
	recorded := record(t, live, path, tour(refs))
	live.Close()

	twin, rec := replaying(t, path, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Attempts: 2}))
	got := tour(refs)(clientThrough(t, twin.URL, twin.Client().Transport))
	assert.Equal(t, recorded, got)
	rec.CheckMatched(t)
	faults := 0
	for _, r := range twin.Requests() {
		if r.Fault != 0 {
			faults++
		}
	}
	assert.Positive(t, faults, "the replay met faults")
}

// A request matches a recorded one whatever the order of its parameters
// and of its filters, with a pageSize over 100, without a page, without
// the parameters the recording scrubs, and under a base URL's prefix.
func TestReplayMatchesTheQueryAsTheServiceNormalizesIt(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer()
	path := harPath(t)
	rec := openRecording(t, path, gamedatatest.ModeOnce)
	const asked = "/api/dashboard?kind=game&page=1&pageSize=100&filter=online&filter=has-players"
	status, _, want := getRaw(t, rec.Transport(live.Client().Transport), live.URL, asked, nil)
	require.Equal(t, http.StatusOK, status)
	require.NoError(t, rec.Save())
	live.Close()

	twin, replayed := replaying(t, path)
	for _, tc := range []struct{ name, path string }{
		{"as recorded", asked},
		{"parameters reordered", "/api/dashboard?pageSize=100&filter=online&page=1&filter=has-players&kind=game"},
		{"filters reordered, pageSize=500, no page", "/api/dashboard?filter=has-players&filter=online&kind=game&pageSize=500"},
		{"a scrubbed parameter", "/api/dashboard?kind=game&page=1&pageSize=100&filter=online&filter=has-players&access_token=x1"},
		{"under a prefix", "/prefix/api/dashboard?kind=game&page=1&pageSize=100&filter=online&filter=has-players"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := getRaw(t, twin.Client().Transport, twin.URL, tc.path, nil)
			assert.Equal(t, http.StatusOK, status)
			assert.Equal(t, string(want), string(body))
		})
	}
	status, _, _ = getRaw(t, twin.Client().Transport, twin.URL, "/api/dashboard?kind=mod&page=1&pageSize=100&filter=online&filter=has-players", nil)
	assert.Equal(t, http.StatusNotFound, status, "another kind is another request")
	assert.Len(t, replayed.Unmatched(), 1)
}

// Identical requests are answered in the order they were recorded, and
// the last answer again after them, as a poll needs.
func TestReplayAnswersPollsInOrderThenRepeatsTheLast(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0))
	ref := packagesOf(live, 1)[0]
	poll := "/api/packages/" + ref.Kind + "/" + ref.Ident
	path := harPath(t)
	rec := openRecording(t, path, gamedatatest.ModeOnce)
	var recorded []string
	for _, title := range []string{"", "Second", "Third"} {
		if title != "" {
			require.NoError(t, live.UpdatePackage(ref.Kind, ref.Ident, gamedatatest.PackageUpdate{Title: title}))
		}
		_, _, body := getRaw(t, rec.Transport(live.Client().Transport), live.URL, poll, nil)
		recorded = append(recorded, string(body))
	}
	require.NoError(t, rec.Save())
	live.Close()

	twin, _ := replaying(t, path)
	var got []string
	for range 5 {
		_, _, body := getRaw(t, twin.Client().Transport, twin.URL, poll, nil)
		got = append(got, string(body))
	}
	assert.Equal(t, []string{recorded[0], recorded[1], recorded[2], recorded[2], recorded[2]}, got)
}

// A conditional request replays as it was answered: the recorded 304
// revalidates the client's cached copy, and a request that names the
// recorded ETag gets a 304, one that names another the body.
func TestReplayRevalidates(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0))
	ref := packagesOf(live, 1)[0]
	path := harPath(t)
	twice := func(c *gamedata.Client) []string {
		var out []string
		for range 2 {
			var resp gamedata.Response
			p, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, gamedata.WithResponseInto(&resp))
			require.NoError(t, err)
			out = append(out, resp.Cache.String(), string(p.JSON()))
		}
		return out
	}
	recorded := record(t, live, path, twice)
	live.Close()
	require.Equal(t, gamedata.CacheRevalidated.String(), recorded[2])

	twin, _ := replaying(t, path)
	assert.Equal(t, recorded, twice(clientThrough(t, twin.URL, twin.Client().Transport)))

	etag := readEntries(t, path)[0].header("ETag")
	require.NotEmpty(t, etag)
	rt := twin.Client().Transport
	status, header, body := getRaw(t, rt, twin.URL, "/api/packages/"+ref.Kind+"/"+ref.Ident, http.Header{"If-None-Match": {etag}})
	assert.Equal(t, http.StatusNotModified, status)
	assert.Equal(t, etag, header.Get("ETag"))
	assert.Empty(t, body)
	status, _, body = getRaw(t, rt, twin.URL, "/api/packages/"+ref.Kind+"/"+ref.Ident, http.Header{"If-None-Match": {`"another"`}})
	assert.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, recorded[1], string(body))
}

// A directory page past the last recorded page is redirected to the last
// one, as the service redirects it, and the client says so alike.
func TestReplayRedirectsAPagePastTheEnd(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
	defer live.Close()
	path := harPath(t)
	record(t, live, path, func(c *gamedata.Client) []string {
		for _, err := range c.Dashboard.All(context.Background(), &gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{PageSize: 7}}, nil) {
			require.NoError(t, err)
		}
		return nil
	})
	const past = "/api/dashboard?kind=game&pageSize=7&page=9"
	wantStatus, wantHeader, wantBody := getRaw(t, live.Client().Transport, live.URL, past, nil)
	require.Equal(t, http.StatusFound, wantStatus)

	twin, rec := replaying(t, path)
	status, header, body := getRaw(t, twin.Client().Transport, twin.URL, past, nil)
	assert.Equal(t, wantStatus, status)
	assert.Equal(t, wantHeader.Get("Location"), header.Get("Location"))
	assert.JSONEq(t, string(wantBody), string(body))

	for _, base := range []string{live.URL, twin.URL} {
		_, err := clientThrough(t, base, http.DefaultTransport).Dashboard.List(context.Background(),
			&gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{PageSize: 7, Page: 9}})
		assert.ErrorIs(t, err, gamedata.ErrPageOutOfRange, base)
	}
	rec.CheckMatched(t)
}

// fakeT records what CheckMatched says.
type fakeT struct{ errors []string }

func (*fakeT) Helper() {}

func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

// A request the recording holds no answer for is a 404 that names its
// match key and the nearest recorded ones; Unmatched lists it once, and
// CheckMatched fails the test.
func TestReplayMissNamesTheKeyAndTheNearest(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
	refs := packagesOf(live, 3)
	path := harPath(t)
	record(t, live, path, func(c *gamedata.Client) []string {
		for _, err := range c.Packages.GetMany(context.Background(), refs, 2) {
			require.NoError(t, err)
		}
		return nil
	})
	live.Close()

	twin, rec := replaying(t, path)
	var ok fakeT
	rec.CheckMatched(&ok)
	assert.Empty(t, ok.errors)

	c := clientThrough(t, twin.URL, twin.Client().Transport)
	for range 2 {
		_, err := c.Packages.Get(context.Background(), "game", refs[0].Ident+"x")
		require.ErrorIs(t, err, gamedata.ErrNotFound)
		assert.ErrorContains(t, err, "/api/packages/game/"+refs[0].Ident+"x: 404 Not Found: {\"error\":\"recording miss: GET /api/")
	}
	_, _, body := getRaw(t, twin.Client().Transport, twin.URL, "/api/packages/game/"+refs[0].Ident+"x", nil)
	var miss struct {
		Error    string
		MatchKey string
		Nearest  []string
	}
	require.NoError(t, json.Unmarshal(body, &miss))
	assert.Equal(t, "GET /api/packages/game/"+refs[0].Ident+"x", miss.MatchKey)
	require.Len(t, miss.Nearest, 3)
	assert.Equal(t, "GET /api/packages/game/"+refs[0].Ident, miss.Nearest[0])
	assert.Equal(t, []string{miss.MatchKey}, rec.Unmatched())
	var failed fakeT
	rec.CheckMatched(&failed)
	assert.Equal(t, []string{"gamedatatest: recording " + path + " holds no answer for " + miss.MatchKey + ": record it in mode new_episodes"},
		failed.errors, "CheckMatched fails the test once for each request missed")
}
