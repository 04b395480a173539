package gamedatatest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// A run of concurrent calls, each URL's first attempt failing, recorded
// twice against twins of one seed: the same file both times, and the
// calls read what they read without the recorder.
func TestTwoRecordingsOfAConcurrentRunAreIdentical(t *testing.T) {
	t.Parallel()
	var files [2]string
	var runs [2][]string
	for i := range files {
		twin := gamedatatest.NewServer(gamedatatest.WithSize(30, 5, 5), gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Attempts: 1}))
		defer twin.Close()
		path := harPath(t)
		runs[i] = record(t, twin, path, tour(packagesOf(twin, 12)))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		files[i] = string(b)
		for _, e := range readEntries(t, path) {
			assert.Equal(t, http.StatusOK, e.Response.Status, "%s: a failure the retry recovered from is left out", e.MatchKey)
		}
	}
	assert.Equal(t, runs[0], runs[1])
	assert.Equal(t, files[0], files[1], "two recordings of one run")

	twin := gamedatatest.NewServer(gamedatatest.WithSize(30, 5, 5))
	defer twin.Close()
	assert.Equal(t, tour(packagesOf(twin, 12))(clientThrough(t, twin.URL, twin.Client().Transport)), runs[0],
		"the recorder passes on what it records")
	for _, l := range runs[0] {
		assert.NotContains(t, l, "error:")
	}
}

// Throttles and server errors are left out of a recording when a later
// attempt of the same request recovered, and kept when none did; a 404
// is an answer, kept.
func TestRecordingKeepsWhatTheServiceAnswered(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(10, 0, 0), gamedatatest.WithFaults(gamedatatest.Faults{
		Rate: 1, Attempts: 2, Kinds: []gamedatatest.Fault{gamedatatest.Fault429, gamedatatest.Fault503, gamedatatest.Fault500},
	}))
	defer twin.Close()
	refs := packagesOf(twin, 2)
	path := harPath(t)
	record(t, twin, path, func(c *gamedata.Client) []string {
		ctx := context.Background()
		_, err := c.Packages.Get(ctx, refs[0].Kind, refs[0].Ident)
		require.NoError(t, err)
		_, err = c.Packages.Get(ctx, "game", "no-such-game")
		require.ErrorIs(t, err, gamedata.ErrNotFound)
		_, err = c.Packages.Get(ctx, refs[1].Kind, refs[1].Ident, gamedata.WithCallRetries(0))
		require.Error(t, err)
		return nil
	})
	got := map[string][]int{}
	for _, e := range readEntries(t, path) {
		got[e.MatchKey] = append(got[e.MatchKey], e.Response.Status)
	}
	var first gamedatatest.Request
	for _, r := range twin.Requests() {
		if strings.HasSuffix(r.Path, "/"+refs[1].Ident) {
			first = r
			break
		}
	}
	assert.Equal(t, map[string][]int{
		"GET /api/packages/game/" + refs[0].Ident: {http.StatusOK},
		"GET /api/packages/game/no-such-game":     {http.StatusNotFound},
		"GET /api/packages/game/" + refs[1].Ident: {first.Status},
	}, got)
	assert.Equal(t, 3*2+1, len(twin.Requests()), "two failed attempts before each answer, one for the call without retries")
}

// A 304 refreshes the headers of the 200 it revalidates, and stays in the
// recording after it.
func TestRecordingRefreshesA200WithA304(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0))
	defer twin.Close()
	ref := packagesOf(twin, 1)[0]
	path := harPath(t)
	record(t, twin, path, func(c *gamedata.Client) []string {
		ctx := context.Background()
		_, err := c.Packages.Get(ctx, ref.Kind, ref.Ident)
		require.NoError(t, err)
		twin.SetCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "no-cache, private"})
		var resp gamedata.Response
		_, err = c.Packages.Get(ctx, ref.Kind, ref.Ident, gamedata.WithResponseInto(&resp))
		require.NoError(t, err)
		require.Equal(t, gamedata.CacheRevalidated, resp.Cache)
		return nil
	})
	entries := readEntries(t, path)
	require.Len(t, entries, 2)
	assert.Equal(t, []int{http.StatusOK, http.StatusNotModified}, []int{entries[0].Response.Status, entries[1].Response.Status})
	assert.Equal(t, []int{0, 1}, []int{entries[0].Sequence, entries[1].Sequence})
	assert.Equal(t, "no-cache, private", entries[0].header("Cache-Control"), "the 304's headers refresh the 200's")
	assert.NotEmpty(t, entries[0].Response.Content.Text)
}

// An attempt that met a transport error or a body cut short is never
// kept, whatever the fault: the recording holds the answer of the retry
// that recovered, whole.
func TestRecordingLeavesOutBrokenAttempts(t *testing.T) {
	t.Parallel()
	for _, fault := range []gamedatatest.Fault{
		gamedatatest.FaultReset, gamedatatest.FaultTruncate, gamedatatest.FaultChunkedCut, gamedatatest.FaultGzipCut,
	} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			twin := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0),
				gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Attempts: 1, Kinds: []gamedatatest.Fault{fault}}))
			defer twin.Close()
			ref := packagesOf(twin, 1)[0]
			path := harPath(t)
			record(t, twin, path, func(c *gamedata.Client) []string {
				_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
				require.NoError(t, err)
				return nil
			})
			require.Equal(t, fault, twin.Requests()[0].Fault, "the first attempt met the fault")
			entries := readEntries(t, path)
			require.Len(t, entries, 1)
			assert.Equal(t, http.StatusOK, entries[0].Response.Status)
			assert.Equal(t, string(twin.Catalog().Package(ref.Kind, ref.Ident)), entries[0].Response.Content.Text)
		})
	}
}

// An answer a recording cannot keep decoded stops Save, whose error names
// the request and what to do; nothing is written.
func TestRecordingRefusesABodyItCannotDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, encoding, body, want string
	}{
		{"brotli", "br", "\x0b\x02\x80", `GET /api/search: the response is "br"-encoded, which a recording cannot decode: do not ask for that Accept-Encoding`},
		{"broken gzip", "gzip", "not gzip", "GET /api/search: a gzip body that does not decode"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Encoding", tc.encoding)
				io.WriteString(w, tc.body)
			}))
			defer front.Close()
			path := harPath(t)
			rec := openRecording(t, path, gamedatatest.ModeOnce)
			status, _, body := getRaw(t, rec.Transport(nil), front.URL, "/api/search?q=secret-query", http.Header{"Accept-Encoding": {tc.encoding}})
			assert.Equal(t, http.StatusOK, status)
			assert.Equal(t, tc.body, string(body), "the caller gets the answer as it came")
			err := rec.Save()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "secret-query", "the query is not repeated")
			assert.NoFileExists(t, path)
		})
	}
}

// A Location that names user information, to the service itself or
// elsewhere, is kept without it: a password in it reaches no file.
func TestRecordingKeepsNoUserInfoOfALocation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, location, want string }{
		{"the service itself", "http://user:LocSecret9@{host}/api/dashboard?page=1", "/api/dashboard?page=1"},
		{"elsewhere", "https://user:LocSecret9@elsewhere.invalid/x?token=t&a=1", "https://elsewhere.invalid/x?a=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Location", strings.ReplaceAll(tc.location, "{host}", r.Host))
				w.WriteHeader(http.StatusFound)
			}))
			defer front.Close()
			path := harPath(t)
			rec := openRecording(t, path, gamedatatest.ModeOnce)
			status, _, _ := getRaw(t, rec.Transport(nil), front.URL, "/api/dashboard?page=9", nil)
			require.Equal(t, http.StatusFound, status)
			require.NoError(t, rec.Save())
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotContains(t, string(b), "LocSecret9")
			entries := readEntries(t, path)
			require.Len(t, entries, 1)
			assert.Equal(t, tc.want, entries[0].header("Location"))
		})
	}
}
