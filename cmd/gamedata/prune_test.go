package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/usage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --keep-raw takes days as well as Go's durations; anything else, or no
// --db, is bad usage.
func TestPruneOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"prune", "--db", "g.sqlite"}, 90 * 24 * time.Hour},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "7d"}, 7 * 24 * time.Hour},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "36h"}, 36 * time.Hour},
	} {
		p, err := parseArgs(t, tc.args...)
		require.NoError(t, err, "%v", tc.args)
		assert.Equal(t, tc.want, p.opts.(*pruneOptions).KeepRaw, "%v", tc.args)
	}
	for _, args := range [][]string{
		{"prune"},
		{"prune", "--db", "g.sqlite", "--keep-raw", "0d"},
		{"prune", "--db", "g.sqlite", "--keep-raw", "-5d"},
		{"prune", "--db", "g.sqlite", "--keep-raw", "soon"},
		{"prune", "--db", "g.sqlite", "extra"},
	} {
		_, err := parseArgs(t, args...)
		assert.True(t, usage.Is(err), "%v: %v", args, err)
	}
}

// prune on a SQLite file that does not exist fails and makes none; on a
// database sync wrote it prunes and says what it deleted.
func TestPruneCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.sqlite")
	code, _, stderr := cli(t, "http://127.0.0.1:0", "prune", "--db", missing)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no such database")
	_, err := os.Stat(missing)
	assert.True(t, os.IsNotExist(err), "no file made under a name the user did not ask for")

	twin := newTwin(t)
	db := filepath.Join(dir, "g.sqlite")
	code, _, stderr = cli(t, twin.URL, "sync", "--db", db, "--no-cache")
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := cli(t, twin.URL, "prune", "--db", db, "--keep-raw", "1d")
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.True(t, strings.Contains(stderr, "every rollup kept"), stderr)
}
