package main

import (
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/docgen"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/help"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// regenerate makes TestCommandReferenceIsCurrent write the reference into
// docs/ instead of comparing it.
var regenerate = flag.Bool("regenerate", false, "write the command reference into ../../docs instead of checking it")

// referenceDate is the month the man pages carry. It is fixed so that the
// reference is the same from run to run; move it when the commands change.
var referenceDate = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

// regenerateCommand is what a person runs to bring the reference up to date.
const regenerateCommand = "go test ./cmd/gamedata -run TestCommandReferenceIsCurrent -args -regenerate"

// TestCommandReferenceIsCurrent regenerates docs/commands and docs/man from
// the commands into a temporary directory and fails on any file that
// differs, is missing or is left over, naming the command that fixes it.
func TestCommandReferenceIsCurrent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the reference is generated on Linux: --cache-dir's help names the user cache directory, which differs by system")
	}
	// Flag defaults that read the environment, written as a reader sees
	// them rather than as this machine has them.
	t.Setenv("GAMEDATA_BASE_URL", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "~")

	docs := filepath.Join("..", "..", "docs")
	dir := docs
	if !*regenerate {
		dir = t.TempDir()
	} else {
		for _, sub := range []string{"commands", "man"} {
			require.NoError(t, os.RemoveAll(filepath.Join(docs, sub)))
		}
	}
	require.NoError(t, docgen.Write(referenceRoot(), dir, referenceDate))
	if *regenerate {
		return
	}
	for _, sub := range []string{"commands", "man"} {
		want := readTree(t, filepath.Join(dir, sub))
		got := readTree(t, filepath.Join(docs, sub))
		for name, body := range want {
			committed, ok := got[name]
			if !assert.True(t, ok, "docs/%s/%s is missing; run: %s", sub, name, regenerateCommand) {
				continue
			}
			assert.Equal(t, body, committed, "docs/%s/%s is not what the commands say; run: %s", sub, name, regenerateCommand)
		}
		for name := range got {
			_, ok := want[name]
			assert.True(t, ok, "docs/%s/%s is no command's; run: %s", sub, name, regenerateCommand)
		}
	}
}

// referenceRoot is the root command with every command, its long
// descriptions wrapped as `gamedata help` wraps them in a pipe.
func referenceRoot() *cobra.Command {
	f := newFactory(io.Discard, io.Discard)
	root := newCmdRoot(f, commands(f)...)
	var wrap func(*cobra.Command)
	wrap = func(c *cobra.Command) {
		c.Long = help.Reflow(c.Long, help.Width)
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	return root
}

// readTree reads every file under dir, keyed by its path under dir; a
// missing dir is an empty tree.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[rel] = string(b)
		return nil
	})
	if os.IsNotExist(err) {
		return files
	}
	require.NoError(t, err)
	return files
}
