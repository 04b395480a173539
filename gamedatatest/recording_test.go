package gamedatatest_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// What each mode does with a request the file holds an answer for and
// with one it does not: none and once (with a file) replay and miss,
// sending nothing; new_episodes replays the one and sends and appends the
// other; all sends both and writes the file anew.
func TestRecordingModes(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
	defer live.Close()
	refs := packagesOf(live, 2)
	key := func(r gamedata.PackageRef) string { return "GET /api/packages/" + r.Kind + "/" + r.Ident }
	recorded := harPath(t)
	record(t, live, recorded, func(c *gamedata.Client) []string {
		_, err := c.Packages.Get(context.Background(), refs[0].Kind, refs[0].Ident)
		require.NoError(t, err)
		return nil
	})
	before, err := os.ReadFile(recorded)
	require.NoError(t, err)

	for _, tc := range []struct {
		mode      gamedatatest.Mode
		sent      int      // requests that reached the twin
		unmatched []string // match keys the recording had no answer for
		saved     []string // match keys in the file after Save
	}{
		{gamedatatest.ModeNone, 0, []string{key(refs[1])}, []string{key(refs[0])}},
		{gamedatatest.ModeOnce, 0, []string{key(refs[1])}, []string{key(refs[0])}},
		{gamedatatest.ModeNewEpisodes, 1, nil, []string{key(refs[0]), key(refs[1])}},
		{gamedatatest.ModeAll, 2, nil, []string{key(refs[0]), key(refs[1])}},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rec.har")
			require.NoError(t, os.WriteFile(path, before, 0o644))
			twin := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
			defer twin.Close()
			rec := openRecording(t, path, tc.mode)
			c := clientThrough(t, twin.URL, rec.Transport(twin.Client().Transport))
			_, err := c.Packages.Get(context.Background(), refs[0].Kind, refs[0].Ident)
			require.NoError(t, err)
			_, err = c.Packages.Get(context.Background(), refs[1].Kind, refs[1].Ident)
			if tc.unmatched != nil {
				require.ErrorIs(t, err, gamedata.ErrNotFound)
				assert.ErrorContains(t, err, "recording miss")
			} else {
				require.NoError(t, err)
			}
			assert.Len(t, twin.Requests(), tc.sent)
			assert.Equal(t, tc.unmatched, rec.Unmatched())
			require.NoError(t, rec.Save())
			var saved []string
			for _, e := range readEntries(t, path) {
				saved = append(saved, e.MatchKey)
			}
			assert.Equal(t, tc.saved, saved)
			if tc.sent == 0 {
				after, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, string(before), string(after), "a recording that sent nothing writes nothing")
			}
		})
	}
}

// The zero Mode is ModeNone, the default: it replays, sends nothing, and
// needs the file.
func TestRecordingZeroModeIsNone(t *testing.T) {
	t.Parallel()
	_, err := gamedatatest.OpenRecording(harPath(t), "")
	require.ErrorIs(t, err, fs.ErrNotExist)
	assert.Contains(t, err.Error(), ": file does not exist: record it first, in mode once")

	live := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0))
	defer live.Close()
	ref := packagesOf(live, 1)[0]
	path := harPath(t)
	require.NoError(t, openRecording(t, path, gamedatatest.ModeAll).Save()) // an empty recording
	rec := openRecording(t, path, "")
	assert.Equal(t, gamedatatest.ModeNone, rec.Mode())
	_, err = clientThrough(t, live.URL, rec.Transport(live.Client().Transport)).Packages.Get(context.Background(), ref.Kind, ref.Ident)
	require.ErrorIs(t, err, gamedata.ErrNotFound)
	assert.Empty(t, live.Requests(), "nothing is sent")
	assert.Len(t, rec.Unmatched(), 1)
}

// ModeAll drops what the file held: the file holds only what this run
// sent.
func TestRecordingModeAllRewritesTheFile(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
	defer live.Close()
	refs := packagesOf(live, 2)
	path := harPath(t)
	for i, ref := range refs {
		mode := gamedatatest.ModeAll
		if i == 0 {
			mode = gamedatatest.ModeOnce
		}
		rec := openRecording(t, path, mode)
		_, err := clientThrough(t, live.URL, rec.Transport(live.Client().Transport)).Packages.Get(context.Background(), ref.Kind, ref.Ident)
		require.NoError(t, err)
		require.NoError(t, rec.Save())
	}
	entries := readEntries(t, path)
	require.Len(t, entries, 1)
	assert.Equal(t, "GET /api/packages/"+refs[1].Kind+"/"+refs[1].Ident, entries[0].MatchKey)
}

// OpenRecording refuses, before anything is sent, a bad mode, a bad rule,
// a replay of a file that does not exist, a file that is not HAR 1.2 and
// one a newer gamedatatest wrote, each saying what to do.
func TestOpenRecordingRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	for _, tc := range []struct {
		name string
		path string
		mode gamedatatest.Mode
		opts []gamedatatest.RecordingOption
		want string
	}{
		{"bad mode", filepath.Join(dir, "x.har"), "replay", nil, `unknown recording mode "replay": use none, once, new_episodes or all`},
		{"no path", "", gamedatatest.ModeOnce, nil, "empty path"},
		{"bad rule", filepath.Join(dir, "x.har"), gamedatatest.ModeOnce, []gamedatatest.RecordingOption{gamedatatest.ScrubHeaders("X-A\nB")}, `ScrubHeaders: bad name "X-A B"`},
		{"empty rule", filepath.Join(dir, "x.har"), gamedatatest.ModeOnce, []gamedatatest.RecordingOption{gamedatatest.AllowQuery("")}, `AllowQuery: bad name ""`},
		{"no file to replay", filepath.Join(dir, "missing.har"), gamedatatest.ModeNone, nil, "missing.har: file does not exist: record it first, in mode once"},
		{"not JSON", write("text.har", "hello"), gamedatatest.ModeNone, nil, "not a HAR file"},
		{"HAR 1.1", write("old.har", `{"log":{"version":"1.1","entries":[]}}`), gamedatatest.ModeNone, nil, `HAR version "1.1", want "1.2"`},
		{"newer format", write("new.har", `{"log":{"version":"1.2","entries":[],"_formatVersion":9,"_sdkVersion":"9.0.0"}}`), gamedatatest.ModeOnce, nil,
			"is of format 9, written by a newer gamedatatest (9.0.0) than this one, which reads format 1: update github.com/gamedata-go/gamedata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gamedatatest.OpenRecording(tc.path, tc.mode, tc.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "gamedatatest: "), err.Error())
		})
	}
	mode, err := gamedatatest.ParseMode("")
	require.NoError(t, err)
	assert.Equal(t, gamedatatest.ModeNone, mode)
}

// The secrets of a run (an Authorization, a Cookie, a Set-Cookie, a
// User-Agent, a token parameter, echoed by the service in a redirect's
// body and Location, and the User-Agent in a header) reach no file; the
// file states the rules.
func TestRecordingScrubsCredentials(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(20, 0, 0))
	defer twin.Close()
	// The service sets a cookie and echoes the User-Agent: a proxy in
	// front of the twin adds them.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Set-Cookie", "sid=SetCookieSecret1; HttpOnly")
		w.Header().Set("X-Seen-Agent", r.UserAgent())
		twin.Handler().ServeHTTP(w, r)
	}))
	defer front.Close()
	secrets := []string{"AuthSecret2", "CookieSecret3", "AgentSecret4", "QuerySecret5", "SetCookieSecret1"}
	path := harPath(t)
	rec := openRecording(t, path, gamedatatest.ModeOnce)
	c := clientThrough(t, front.URL, rec.Transport(nil), gamedata.WithUserAgent("tester AgentSecret4"))
	opts := []gamedata.CallOption{
		gamedata.WithHeader("Authorization", "Bearer AuthSecret2"),
		gamedata.WithHeader("Cookie", "session=CookieSecret3"),
		gamedata.WithQuery("token", "QuerySecret5"),
	}
	ref := packagesOf(twin, 1)[0]
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, opts...)
	require.NoError(t, err)
	_, err = c.Dashboard.List(context.Background(), &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{Page: 40}}, opts...)
	require.ErrorIs(t, err, gamedata.ErrPageOutOfRange)
	require.NoError(t, rec.Save())

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, s := range secrets {
		assert.NotContains(t, string(b), s)
	}
	entries := readEntries(t, path)
	require.Len(t, entries, 2)
	for _, e := range entries {
		for _, h := range append(e.Request.Headers, e.Response.Headers...) {
			assert.NotContains(t, []string{"Authorization", "Cookie", "Set-Cookie", "User-Agent"}, h.Name)
		}
		assert.NotContains(t, e.Request.URL, "token")
	}
	assert.Contains(t, entries[0].Response.Content.Text, `"location":"/api/dashboard?page=1&token=REDACTED"`, "the echoed secret is replaced")
	assert.Equal(t, "/api/dashboard?page=1", entries[0].header("Location"), "the scrubbed parameter is gone from the Location")
	assert.Equal(t, "REDACTED", entries[0].header("X-Seen-Agent"), "the echoed User-Agent is replaced")

	var f struct {
		Log struct {
			Scrub struct{ RemovedHeaders, RemovedQuery []string } `json:"_scrub"`
		}
	}
	require.NoError(t, json.Unmarshal(b, &f))
	assert.Subset(t, f.Log.Scrub.RemovedHeaders, []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "User-Agent", "Date", "Via", "X-Forwarded-*", "Content-Length", "Content-Encoding"})
	assert.Equal(t, []string{"access_token", "api_key", "key", "token"}, f.Log.Scrub.RemovedQuery)
}

// A header or parameter whose name looks like a credential, and that no
// rule removes, stops Save, whose error names it and never its value;
// ScrubHeaders removes it and AllowHeaders keeps it. A file that holds
// one is refused.
func TestRecordingRefusesLeftoverCredentials(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 0))
	defer twin.Close()
	ref := packagesOf(twin, 1)[0]
	run := func(path string, call gamedata.CallOption, opts ...gamedatatest.RecordingOption) error {
		rec := openRecording(t, path, gamedatatest.ModeOnce, opts...)
		_, err := clientThrough(t, twin.URL, rec.Transport(twin.Client().Transport)).Packages.Get(context.Background(), ref.Kind, ref.Ident, call)
		require.NoError(t, err)
		return rec.Save()
	}
	apiKey := gamedata.WithHeader("X-Api-Key", "KeySecret6")
	for _, tc := range []struct {
		name  string
		call  gamedata.CallOption
		opts  []gamedatatest.RecordingOption
		err   string // "" when saved
		value bool   // the value is in the file
	}{
		{"header", apiKey, nil, `GET /api/packages/game/` + ref.Ident + `: the request header "X-Api-Key" looks like a credential: remove it with gamedatatest.ScrubHeaders("X-Api-Key"), or keep it with gamedatatest.AllowHeaders("X-Api-Key") if it is none`, false},
		{"header scrubbed", apiKey, []gamedatatest.RecordingOption{gamedatatest.ScrubHeaders("x-api-key")}, "", false},
		{"header scrubbed by prefix", apiKey, []gamedatatest.RecordingOption{gamedatatest.ScrubHeaders("X-Api-*")}, "", false},
		{"header allowed", apiKey, []gamedatatest.RecordingOption{gamedatatest.AllowHeaders("X-API-KEY")}, "", true},
		{"parameter", gamedata.WithQuery("session_id", "KeySecret6"), nil, `the query parameter "session_id" looks like a credential: remove it with gamedatatest.ScrubQuery("session_id")`, false},
		{"parameter scrubbed", gamedata.WithQuery("session_id", "KeySecret6"), []gamedatatest.RecordingOption{gamedatatest.ScrubQuery("Session_ID")}, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := harPath(t)
			err := run(path, tc.call, tc.opts...)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.NotContains(t, err.Error(), "KeySecret6")
				var cred *gamedatatest.CredentialError
				require.ErrorAs(t, err, &cred)
				assert.False(t, cred.InFile)
				assert.NoFileExists(t, path)
				return
			}
			require.NoError(t, err)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tc.value, strings.Contains(string(b), "KeySecret6"))
		})
	}

	t.Run("file", func(t *testing.T) {
		path := harPath(t)
		require.NoError(t, run(path, gamedata.WithHeader("Accept-Language", "Secret7")))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		planted := strings.Replace(string(b), `"name": "Accept-Language"`, `"name": "Authorization"`, 1)
		require.NotEqual(t, string(b), planted)
		require.NoError(t, os.WriteFile(path, []byte(planted), 0o644))
		_, err = gamedatatest.OpenRecording(path, gamedatatest.ModeNone)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `entry 0: GET /api/packages/game/`+ref.Ident+`: the request header "Authorization" looks like a credential: remove it from the file, or keep it with gamedatatest.AllowHeaders("Authorization") if it is none`)
		assert.NotContains(t, err.Error(), "Secret7")
		var cred *gamedatatest.CredentialError
		require.ErrorAs(t, err, &cred)
		assert.Equal(t, gamedatatest.CredentialError{Request: "GET /api/packages/game/" + ref.Ident, Where: "request header", Name: "Authorization", InFile: true}, *cred)
	})
}

// A saved recording is a HAR 1.2 log that a browser opens: what HAR 1.2
// requires of the log and of every entry is there, of the right type.
func TestRecordingIsHAR12(t *testing.T) {
	t.Parallel()
	live := gamedatatest.NewServer(gamedatatest.WithSize(20, 2, 2))
	defer live.Close()
	path := harPath(t)
	record(t, live, path, tour(packagesOf(live, 3)))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b, &doc))
	log := object(t, doc, "log")
	assert.Equal(t, "1.2", log["version"])
	creator := object(t, log, "creator")
	assert.IsType(t, "", creator["name"])
	assert.IsType(t, "", creator["version"])
	entries, ok := log["entries"].([]any)
	require.True(t, ok)
	require.NotEmpty(t, entries)
	var last time.Time
	for _, raw := range entries {
		e, ok := raw.(map[string]any)
		require.True(t, ok)
		started, err := time.Parse(time.RFC3339Nano, e["startedDateTime"].(string))
		require.NoError(t, err)
		assert.True(t, started.After(last), "entries start in the file's order")
		last = started
		assert.IsType(t, float64(0), e["time"])
		object(t, e, "cache")
		req := object(t, e, "request")
		for _, name := range []string{"method", "url", "httpVersion"} {
			assert.IsType(t, "", req[name], name)
		}
		for _, name := range []string{"cookies", "headers", "queryString"} {
			assert.IsType(t, []any{}, req[name], name)
		}
		resp := object(t, e, "response")
		for _, name := range []string{"statusText", "httpVersion", "redirectURL"} {
			assert.IsType(t, "", resp[name], name)
		}
		for _, name := range []string{"cookies", "headers"} {
			assert.IsType(t, []any{}, resp[name], name)
		}
		for _, m := range []map[string]any{req, resp} {
			assert.IsType(t, float64(0), m["headersSize"])
			assert.IsType(t, float64(0), m["bodySize"])
		}
		assert.IsType(t, float64(0), resp["status"])
		content := object(t, resp, "content")
		assert.IsType(t, float64(0), content["size"])
		assert.IsType(t, "", content["mimeType"])
		timings := object(t, e, "timings")
		for _, name := range []string{"send", "wait", "receive"} {
			v, ok := timings[name].(float64)
			assert.True(t, ok && v >= 0, name)
		}
	}
}

// object is the member name of m, an object.
func object(t *testing.T, m map[string]any, name string) map[string]any {
	t.Helper()
	o, ok := m[name].(map[string]any)
	require.True(t, ok, "%s is not an object: %v", name, m[name])
	return o
}
