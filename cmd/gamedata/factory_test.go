package main

import (
	"bytes"
	"context"
	"encoding/json"
	"time"

	"os"
	"path/filepath"
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
// the error says so, naming the way out; nothing is sent.
func TestCacheDirUnusable(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	code, _, errOut := cli(t, twin.URL, "--cache-dir", filepath.Join(file, "cache"), "list")
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `^gamedata: --cache-dir \S+: no cache can be kept there \(mkdir \S+: not a directory\); give a directory of your own that you can write, or leave --cache-dir out \(sync: --no-cache\)\n$`, errOut)
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
