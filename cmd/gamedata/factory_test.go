package main

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With --cache-dir a second run revalidates what the first stored: the
// twin answers 304.
func TestCacheDir(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	for range 2 {
		code, out, errOut := cli(t, twin.URL, "--cache-dir", dir, "get", "package", ref, "-o", "json")
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, pkg.Ident)
	}
	reqs := twin.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, 200, reqs[0].Status)
	assert.Equal(t, 304, reqs[1].Status, "the second run sent a conditional request")
}

// A --cache-dir where no cache can be kept is the user's flag to fix, and
// the error says why in a person's words, once prefixed, and what to
// give instead: a directory of their own, such as the one sync keeps by
// default. Nothing is sent.
func TestCacheDirUnusable(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	shared := filepath.Join(dir, "shared")
	require.NoError(t, os.Mkdir(shared, 0o700))
	require.NoError(t, os.Chmod(shared, 0o777)) // as the umask would not leave it
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(shared, link))
	instead := regexp.QuoteMeta("; give a directory only you can write, such as " + suggestedCacheDir() + " (sync's default), or leave --cache-dir out")
	for _, tt := range []struct {
		dir, why string
	}{
		{filepath.Join(file, "cache"), regexp.QuoteMeta("mkdir " + file + ": not a directory")},
		{shared, regexp.QuoteMeta(`"`+shared+`" may be written by its group or others`) + ".*so whoever can write it could plant entries that the client would serve as the service's answers"},
		{link, regexp.QuoteMeta(`"` + link + `" is a symbolic link, which whoever controls it can point elsewhere`)},
	} {
		code, _, errOut := cli(t, twin.URL, "list", "--cache-dir", tt.dir)
		assert.Equal(t, 1, code, errOut)
		assert.Regexp(t, "^gamedata: --cache-dir "+regexp.QuoteMeta(tt.dir)+": no cache can be kept there: "+tt.why+instead+"\n$", errOut)
		assert.Equal(t, 1, strings.Count(errOut, "gamedata:"), errOut)
		assert.NotContains(t, errOut, "UserCacheDir", "a Go function is no advice to a person")
	}
	assert.Empty(t, twin.Requests())
}

// sync keeps its cache under the home directory unless told otherwise;
// without a usable home (HOME=/nonexistent, here a home under a file, so
// that root cannot make it either) it runs without a disk cache and says
// so once. Not parallel: it sets HOME.
func TestNoHomeRunsWithoutCache(t *testing.T) {
	twin := newTwin(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	t.Setenv("HOME", filepath.Join(file, "home"))
	t.Setenv("XDG_CACHE_HOME", "")
	code, _, errOut := cli(t, twin.URL, "sync", "--db", filepath.Join(dir, "games.sqlite"))
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, strings.Count(errOut, "no HTTP cache"), errOut)
	assert.Contains(t, errOut, "no HTTP cache this run: mkdir "+file+": not a directory (give --cache-dir")
	assert.NoFileExists(t, filepath.Join(file, "home"))
}

// The twin the command starts for a person is set to the wall clock, so
// that its data reaches today; a test's own twin keeps its fixed clock.
func TestOwnTwinIsNow(t *testing.T) {
	t.Parallel()
	now := gamedatatest.NewServer(gamedatatest.WithSize(1, 0, 0)).Catalog().Now.Add(400*time.Hour + 7*time.Second)
	var stdout, stderr bytes.Buffer
	f := newFactory(&stdout, &stderr)
	f.now = func() time.Time { return now }
	code := runWith(context.Background(), f, []string{"activity", "--twin", "--rate", "0", "-o", "json"})
	require.Equal(t, 0, code, stderr.String())
	assert.Equal(t, now, f.twin.Catalog().Now)
	var points []struct {
		Time time.Time `json:"time"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &points), "%.200s", stdout.String())
	require.NotEmpty(t, points)
	last := points[len(points)-1].Time
	assert.WithinDuration(t, now, last, 24*time.Hour, "the history ends at the twin's now, not at its reference time")
}

// GAMEDATA_DEBUG=api writes exactly one line on stderr for each attempt,
// with its method, route template, attempt, status, cache status and
// duration: never a body, and every value sanitized.
func TestDebugAttemptLines(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, _, errOut := runEnv(t, map[string]string{"GAMEDATA_DEBUG": "api"}, serviceArgs(twin.URL, []string{"get", "package", "game/no-such-game"})...)
	require.Equal(t, 1, code, errOut)
	var attempts []string
	for _, line := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(line, "gamedata: attempt ") {
			attempts = append(attempts, line)
		}
	}
	// The record's 404, then the directory's first page, which tells a
	// missing record from a wrong base URL.
	require.Len(t, attempts, len(twin.Requests()), errOut)
	require.Len(t, attempts, 2, errOut)
	assert.Equal(t, len(attempts)+1, strings.Count(errOut, "\n"), "one line an attempt, and the error: %s", errOut)
	assert.Regexp(t, `^gamedata: attempt method=GET route=/api/packages/\{kind\}/\{ident\} attempt=1 status=404 cache=miss duration=\S+ rate_limit_wait=\S+$`, attempts[0])
	assert.Regexp(t, `^gamedata: attempt method=GET route=/api/dashboard attempt=1 status=200 cache=miss duration=\S+ rate_limit_wait=\S+$`, attempts[1])
	assert.NotContains(t, errOut, `{"`, "no body")
	assertInert(t, errOut, "stderr")
	assert.True(t, strings.HasSuffix(errOut, "gamedata: no package game/no-such-game on the service (404); check the kind and ident, or find it with: gamedata search no-such-game\n"), errOut)
}

// GAMEDATA_DEBUG takes api (or 1, true) and 0, false or nothing; any
// other value is bad usage, said with the values it takes before
// anything starts.
func TestDebugValues(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		value string
		lines bool
	}{
		{"", false}, {"0", false}, {"false", false},
		{"api", true}, {"API", true}, {"1", true}, {"true", true},
	} {
		code, _, errOut := runEnv(t, map[string]string{"GAMEDATA_DEBUG": tt.value}, serviceArgs(twin.URL, []string{"get", "package", "game/1337", "-o", "json"})...)
		require.Equal(t, 0, code, "%q: %s", tt.value, errOut)
		assert.Equal(t, tt.lines, strings.Contains(errOut, "gamedata: attempt method=GET"), "%q: %s", tt.value, errOut)
	}
	before := len(twin.Requests())
	code, _, errOut := runEnv(t, map[string]string{"GAMEDATA_DEBUG": "verbose"}, "list", "--page-size", "1")
	assert.Equal(t, 2, code)
	assert.Equal(t, `gamedata: GAMEDATA_DEBUG="verbose": want api (or 1, true) for a line on stderr for each request attempt, or 0, false or nothing for none`+"\n", errOut)
	assert.Len(t, twin.Requests(), before)
}
