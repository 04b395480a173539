package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What a command prints from a recording --record made against a twin,
// replayed with --replay once that twin is gone, is what it printed
// while recording, byte for byte: a twin of another seed at
// $GAMEDATA_BASE_URL is never asked. api --paginate --jq prints the
// catalogue's size once, recording and replaying alike.
func TestRecordThenReplayPrintsTheSame(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twinGames(twin)
	ref := "game/" + games[0].Ident
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
	}{
		{"list", []string{"list", "--kind", "game", "--all", "--page-size", "7"}},
		{"get", []string{"get", "package", ref, "-o", "json"}},
		{"search", []string{"search", "e", "-o", "csv"}},
		{"analytics", []string{"analytics", "package", ref, "-o", "csv"}},
		{"activity", []string{"activity", "--range", "24h"}},
		{"export", []string{"export", "--kind", "game"}},
		{"api", []string{"api", "/api/dashboard?kind=game", "--paginate", "--jq", ".items|length"}},
	}
	recorded := map[string]string{}
	for _, tt := range cases {
		file := filepath.Join(dir, tt.name+".har")
		code, out, errOut := cli(t, twin.URL, append(tt.args, "--record", file)...)
		require.Equal(t, 0, code, "%s: %s", tt.name, errOut)
		require.NotEmpty(t, out, tt.name)
		recorded[tt.name] = out
	}
	assert.Equal(t, fmt.Sprintf("%d\n", len(games)), recorded["api"], "the catalogue's size, once")
	twin.Close()

	other := newTwin(t, gamedatatest.WithSeed(7))
	for _, tt := range cases {
		file := filepath.Join(dir, tt.name+".har")
		code, out, errOut := runEnv(t, map[string]string{"GAMEDATA_BASE_URL": other.URL}, append(tt.args, "--replay", file, "--rate", "0")...)
		require.Equal(t, 0, code, "%s: %s", tt.name, errOut)
		assert.Equal(t, recorded[tt.name], out, "%s: the same bytes", tt.name)
		assert.True(t, strings.HasPrefix(errOut, "gamedata: --replay given: answering from "+file+", offline, through the in-process twin of the service (gamedatatest) at http://127.0.0.1:"), "%s: %q", tt.name, errOut)
		assert.Contains(t, errOut, ", not $GAMEDATA_BASE_URL ("+other.URL+")\n", tt.name)
	}
	assert.Empty(t, other.Requests(), "a replay sends nothing")
}

// The merged document api --paginate prints under --replay is the one it
// printed while recording: the twin's catalogue, each entry once.
func TestAPIPaginateUnderReplay(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	file := filepath.Join(t.TempDir(), "games.har")
	args := []string{"api", "/api/dashboard?kind=game", "-f", "pageSize=7", "--paginate", "--jq", "[.items[] | .kind + \"/\" + .ident] | join(\" \")"}
	code, recorded, errOut := cli(t, twin.URL, append(args, "--record", file)...)
	require.Equal(t, 0, code, errOut)
	code, replayed, errOut := runEnv(t, nil, append(args, "--replay", file, "--rate", "0")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, recorded, replayed)
	var want []string
	for _, e := range twinGames(twin) {
		want = append(want, e.Kind+"/"+e.Ident)
	}
	assert.Equal(t, strings.Join(want, " ")+"\n", replayed)
}

// A request the recording holds no answer for fails the command, exit 1,
// on a line that names it by its match key and says to record it,
// whatever the command made of the 404 that answered it; a 404 that was
// recorded stays the service's 404.
func TestReplayMissNamesTheRequest(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ident := twinGames(twin)[0].Ident
	file := filepath.Join(t.TempDir(), "r.har")
	code, _, errOut := cli(t, twin.URL, "get", "package", "game/"+ident, "--record", file)
	require.Equal(t, 0, code, errOut)
	code, _, recorded404 := cli(t, twin.URL, "get", "package", "game/nope", "--record", file)
	require.Equal(t, 1, code, recorded404)
	require.Contains(t, recorded404, "no package game/nope on the service (404)")
	twin.Close()

	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"get", "package", "game/other"}, "gamedata: --replay " + file + " holds no answer for GET /api/packages/game/other: record it with --record " + file + " in place of --replay\n"},
		{[]string{"api", "/api/packages/game/other?x=1"}, "gamedata: --replay " + file + " holds no answer for GET /api/packages/game/other?x=1: record it with --record " + file + " in place of --replay\n"},
		{[]string{"get", "package", "game/nope"}, recorded404},
	} {
		code, out, errOut := runEnv(t, nil, append(tt.args, "--replay", file, "--rate", "0")...)
		assert.Equal(t, 1, code, "%v", tt.args)
		assert.Empty(t, out, "%v", tt.args)
		_, last, _ := strings.Cut(errOut, "\n") // after the notice
		if strings.Count(last, "\n") > 1 {      // api says the body first
			last = last[strings.LastIndex(strings.TrimSuffix(last, "\n"), "\n")+1:]
		}
		assert.Equal(t, tt.says, last, "%v", tt.args)
	}
}

// --record is saved when the command fails too, and when an interrupt
// cuts it short: what it holds then are the exchanges whose answers came
// whole, which replay as they were.
func TestRecordIsSavedWhenTheCommandEndsEarly(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	failed := filepath.Join(dir, "failed.har")
	code, _, errOut := cli(t, twin.URL, "get", "package", "game/nope", "--record", failed)
	require.Equal(t, 1, code, errOut)
	rec, err := gamedatatest.OpenRecording(failed, gamedatatest.ModeNone)
	require.NoError(t, err)
	assert.Empty(t, rec.Unmatched())

	cut := filepath.Join(dir, "cut.har")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &cancelOnWrite{cancel: cancel}
	code, errOut = runUntil(t, ctx, stdout, twin.URL, "list", "--kind", "game", "--all", "--page-size", "7", "-o", "ndjson", "--record", cut)
	require.Equal(t, 130, code, errOut)
	first, _, _ := strings.Cut(stdout.String(), "\n")
	require.NotEmpty(t, first)
	code, out, errOut := runEnv(t, nil, "list", "--kind", "game", "--page-size", "7", "-o", "ndjson", "--replay", cut, "--rate", "0")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, first, strings.Split(out, "\n")[0], "the first page, as recorded")
}

// --record-mode says what --record does with its file: once records into
// a new file and then only replays it, none only replays (a file that
// does not exist is a failure), new_episodes adds what the file lacks,
// all writes it anew.
func TestRecordModes(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	idents := twinGames(twin)
	a, b := "game/"+idents[0].Ident, "game/"+idents[1].Ident
	dir := t.TempDir()
	record := func(file, mode, ref string) (int, string) {
		t.Helper()
		args := []string{"get", "package", ref, "--record", file}
		if mode != "" {
			args = append(args, "--record-mode", mode)
		}
		code, _, errOut := cli(t, twin.URL, args...)
		return code, errOut
	}
	keys := func(file string) []string {
		t.Helper()
		body, err := os.ReadFile(file)
		require.NoError(t, err)
		var ks []string
		for _, ref := range []string{a, b} {
			if strings.Contains(string(body), `"url": "http://recorded.invalid/api/packages/`+ref+`"`) {
				ks = append(ks, ref)
			}
		}
		return ks
	}

	once := filepath.Join(dir, "once.har")
	code, errOut := record(once, "once", a)
	require.Equal(t, 0, code, errOut)
	sent := len(twin.Requests())
	code, errOut = record(once, "once", a)
	require.Equal(t, 0, code, errOut)
	assert.Len(t, twin.Requests(), sent, "once replays a file that exists")
	code, errOut = record(once, "once", b)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "gamedata: --record "+once+" holds no answer for GET /api/packages/"+b+" (and 1 more): record it with --record-mode new_episodes\n")
	assert.Equal(t, []string{a}, keys(once))

	code, errOut = record(filepath.Join(dir, "none.har"), "none", a)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "gamedata: --record "+filepath.Join(dir, "none.har")+" --record-mode none: no such file; record it first, without --record-mode\n")
	assert.NoFileExists(t, filepath.Join(dir, "none.har"))

	episodes := filepath.Join(dir, "episodes.har")
	for _, ref := range []string{a, b} {
		code, errOut = record(episodes, "", ref)
		require.Equal(t, 0, code, errOut)
	}
	assert.Equal(t, []string{a, b}, keys(episodes), "new_episodes, the default, adds")
	code, errOut = record(episodes, "all", b)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, []string{b}, keys(episodes), "all writes the file anew")
}

// A recording keeps nothing of a credential: not the command's own
// User-Agent, and not a credential given as a query parameter, which
// the recorder removes; a parameter whose name only looks like one is
// refused at saving, naming it and never its value, and nothing is
// written.
func TestRecordKeepsNoCredential(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ident := twinGames(twin)[0].Ident
	dir := t.TempDir()
	file := filepath.Join(dir, "r.har")
	args := []string{"api", "/api/packages/game/" + ident, "-f", "token=s3cr3t-1", "-f", "api_key=s3cr3t-2", "-f", "access_token=s3cr3t-3", "-f", "key=s3cr3t-4"}
	code, recorded, errOut := cli(t, twin.URL, append(args, "--record", file)...)
	require.Equal(t, 0, code, errOut)
	body, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, secret := range []string{"s3cr3t", "gamedata-cli", `"name": "User-Agent"`} {
		assert.NotContains(t, string(body), secret)
	}
	reqs := twin.Requests()
	assert.Equal(t, "s3cr3t-1", reqs[len(reqs)-1].Query.Get("token"), "the request carried it")
	code, replayed, errOut := runEnv(t, nil, append(args, "--replay", file, "--rate", "0")...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, recorded, replayed)

	refused := filepath.Join(dir, "refused.har")
	code, out, errOut := cli(t, twin.URL, "api", "/api/packages/game/"+ident, "-f", "session_secret=s3cr3t-5", "--record", refused)
	assert.Equal(t, 1, code)
	assert.NotEmpty(t, out, "the command ran")
	assert.Equal(t, "gamedata: --record "+refused+": not saved: GET /api/packages/game/"+ident+
		`: the query parameter "session_secret" looks like a credential: leave it out of the request, since a recording never keeps a credential`+"\n", errOut)
	assert.NoFileExists(t, refused)
}

// A recording that cannot be saved fails the command, naming the file
// and what to do; one that cannot be read is refused before anything is
// sent.
func TestRecordFileErrors(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	notHAR := filepath.Join(dir, "not.har")
	require.NoError(t, os.WriteFile(notHAR, []byte("kind,ident\n"), 0o644))
	nowhere := filepath.Join(dir, "no-such-dir", "r.har")
	ref := "game/" + twinGames(twin)[0].Ident
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"get", "package", ref, "--record", nowhere}, "gamedata: --record " + nowhere + ": not saved: no such file or directory; give --record a file in a directory you can write\n"},
		{[]string{"get", "package", "game/x", "--record", notHAR}, "gamedata: --record " + notHAR + ": not a HAR file: invalid character 'k' looking for beginning of value; give a file that --record made\n"},
		{[]string{"get", "package", "game/x", "--replay", notHAR}, "gamedata: --replay " + notHAR + ": not a HAR file: invalid character 'k' looking for beginning of value; give a file that --record made\n"},
		{[]string{"get", "package", "game/x", "--replay", nowhere}, "gamedata: --replay " + nowhere + ": no such file; make it first with --record " + nowhere + "\n"},
	} {
		sent := len(twin.Requests())
		args := tt.args
		if strings.Contains(strings.Join(args, " "), "--replay") {
			args = append(args, "--rate", "0")
		}
		code, _, errOut := runEnv(t, map[string]string{"GAMEDATA_BASE_URL": twin.URL}, args...)
		assert.Equal(t, 1, code, "%v", tt.args)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		assert.Equal(t, tt.says, lines[len(lines)-1]+"\n", "%v", tt.args)
		if tt.args[len(tt.args)-1] != nowhere || tt.args[len(tt.args)-2] != "--record" {
			assert.Len(t, twin.Requests(), sent, "%v: nothing sent", tt.args)
		}
	}
}

// --record and --replay with what they cannot go with are bad usage:
// one line, exit 2, nothing sent and no file written.
func TestRecordUsageErrors(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "r.har")
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"--record", ""}, "get --record: give the file to record into"},
		{[]string{"--replay", ""}, "get --replay: give the file to replay"},
		{[]string{"--record", file, "--replay", file}, "get --record and --replay: give one; --record writes the file, --replay reads it"},
		{[]string{"--record-mode", "all"}, "get --record-mode: it says what --record does; give --record FILE too"},
		{[]string{"--record", file, "--record-mode", "always"}, `get --record-mode "always": want new_episodes, once, all or none`},
		{[]string{"--record", file, "--record-mode", ""}, `get --record-mode "": want new_episodes, once, all or none`},
		{[]string{"--replay", file, "--base-url", twin.URL}, "get --replay and --base-url: a replay is offline and sends nothing to the service; leave --base-url out"},
		{[]string{"--replay", file, "--twin"}, "get --replay and --twin: a replay answers through the twin already; leave --twin out"},
		{[]string{"--record", file, "--cache-dir", dir}, "get --cache-dir with --record: a cached answer is never sent, so it is never recorded; leave --cache-dir out"},
		{[]string{"--replay", file, "--cache-dir", dir}, "get --cache-dir with --replay: a cached answer is never sent, so it is never recorded; leave --cache-dir out"},
	} {
		code, out, errOut := runEnv(t, map[string]string{"GAMEDATA_BASE_URL": twin.URL}, append([]string{"get", "package", "game/x"}, tt.args...)...)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Empty(t, out, "%v", tt.args)
		assert.Equal(t, "gamedata: "+tt.says+"\n", errOut, "%v", tt.args)
	}
	assert.Empty(t, twin.Requests())
	assert.NoFileExists(t, file)
}

// A command that observes its attempts (sync counts the bytes of the
// bodies) records and replays as any other: its observer sits over the
// recording.
func TestSyncRecordsAndReplays(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "sync.har")
	code, _, errOut := cli(t, twin.URL, "sync", "--db", filepath.Join(dir, "a.sqlite"), "--range", "24h", "--record", file)
	require.Equal(t, 0, code, errOut)
	twin.Close()
	code, _, errOut = runEnv(t, nil, "sync", "--db", filepath.Join(dir, "b.sqlite"), "--range", "24h", "--replay", file, "--rate", "0")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, "no answer")
}

// A command refused before it has a client (a --base-url that is no
// service's) leaves the file --record names as it was, even in
// --record-mode all, which writes the file anew: bad usage sends
// nothing, so it records nothing over what the file held.
func TestRecordModeAllKeepsTheFileOnBadUsage(t *testing.T) {
	t.Parallel()
	file, held := recordedPackage(t)
	code, out, errOut := runEnv(t, nil, "get", "package", "game/1337", "--base-url", "ftp://bad.example", "--record", file, "--record-mode", "all")
	assert.Equal(t, 2, code, errOut)
	assert.Empty(t, out)
	now, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(held), string(now), "the recording is as it was")
}

// A file that holds a header named like a credential is refused, by
// --record and --replay alike, with advice a command's user can follow:
// remove it from the file (not the library's option that allows it).
func TestRecordingFileWithACredential(t *testing.T) {
	t.Parallel()
	file, body := recordedPackage(t)
	held := strings.Replace(string(body), `"headers": [`, `"headers": [{"name": "X-Api-Key", "value": "s3cr3t"},`, 1)
	require.NotEqual(t, string(body), held)
	require.NoError(t, os.WriteFile(file, []byte(held), 0o600))
	for _, flag := range []string{"--record", "--replay"} {
		code, out, errOut := runEnv(t, nil, "get", "package", "game/1337", flag, file, "--rate", "0")
		assert.Equal(t, 1, code, flag)
		assert.Empty(t, out, flag)
		assert.Equal(t, "gamedata: "+flag+" "+file+`: GET /api/packages/game/1337: the request header "X-Api-Key" looks like a credential: `+
			"remove it from the file, since a recording never keeps a credential\n", errOut, flag)
	}
}

// recordedPackage is a file --record made of get package game/1337
// against a twin, and what it holds.
func recordedPackage(t *testing.T) (string, []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "r.har")
	code, _, errOut := cli(t, newTwin(t).URL, "get", "package", "game/1337", "--record", file)
	require.Equal(t, 0, code, errOut)
	body, err := os.ReadFile(file)
	require.NoError(t, err)
	return file, body
}
