package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --cache-dir's help suggests a directory under the user's cache
// directory, never one under the shared temporary directory.
func TestCacheDirHelp(t *testing.T) {
	t.Parallel()
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no user cache directory here (%v): set HOME or XDG_CACHE_HOME", err)
	}
	code, out, errOut := cli(t, "http://unused.invalid", "help", "get")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, filepath.Join(dir, "gamedata"))
	assert.NotContains(t, out, os.TempDir())
}

// Bad usage exits 2 and a failure 1, each with one line on stderr that
// says what was wrong.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"lsit"}, 2, `did you mean "list"?`},
		{[]string{"list", "--page-size", "x"}, 2, "invalid argument"},
		{[]string{"list", "-o", "yaml"}, 2, `-o "yaml"`},
		{[]string{"get", "package", "nokind"}, 2, "want KIND/IDENT"},
		{[]string{"get", "thing", "x"}, 2, `get "thing"`},
		{[]string{"list", "--page-size", "500"}, 2, "page size 500"},
		{[]string{"export", "--resume"}, 2, "--resume needs --out"},
		{[]string{"chart", "activity"}, 2, "--term"},
		{[]string{"get", "package", "game/no-such-game"}, 1, "404 Not Found"},
	} {
		code, _, errOut := cli(t, twin.URL, tt.args...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, errOut)
		first := strings.SplitN(errOut, "\n", 2)[0]
		assert.Contains(t, first, tt.says, "%v", tt.args)
		assert.True(t, strings.HasPrefix(first, "gamedata: "), first)
	}
}
