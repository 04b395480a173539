package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A SQLite path that cannot be a database is said with what is wrong
// with it and what to do, never SQLite's bare "unable to open database
// file", and nothing is made under it.
func TestSQLitePathErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notDB, []byte("not a database, but long enough to have a header of its own\n"), 0o600))
	for _, c := range []struct{ path, says string }{
		{filepath.Join(dir, "missing", "g.sqlite"), "--db " + filepath.Join(dir, "missing", "g.sqlite") + ": the directory " + filepath.Join(dir, "missing") + " does not exist; create it (mkdir -p " + filepath.Join(dir, "missing") + ") or choose another path"},
		{dir, "--db " + dir + " is a directory; give a file in it, such as " + filepath.Join(dir, "games.sqlite")},
		{"/proc/x", "cannot open or create the SQLite file /proc/x"},
		{notDB, notDB + " is not a SQLite database; choose another --db"},
		{filepath.Join(notDB, "g.sqlite"), notDB + " is not a directory"},
		{"/dev/null", "--db /dev/null is not a regular file"},
	} {
		_, err := Open(context.Background(), c.path)
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), c.says, c.path)
		assert.NotContains(t, err.Error(), "unable to open database file", c.path)
	}
	assert.NoDirExists(t, filepath.Join(dir, "missing"))
}

// A database file that cannot be written is said to be read-only, with
// what to do. Root writes a file whatever its mode, so as root the file
// is made immutable (chattr +i) instead.
func TestSQLiteReadOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.sqlite")
	db := open(t, path)
	require.NoError(t, db.Close())
	if os.Geteuid() == 0 {
		chattr, err := exec.LookPath("chattr")
		if err != nil {
			t.Skip("as root, a read-only file needs chattr: apt-get install -y e2fsprogs")
		}
		if out, err := exec.Command(chattr, "+i", path).CombinedOutput(); err != nil {
			t.Skipf("chattr +i: %v: %s (the file system has no immutable files)", err, out)
		}
		t.Cleanup(func() { exec.Command(chattr, "-i", path).Run() })
	} else {
		require.NoError(t, os.Chmod(path, 0o444))
	}
	s, err := Open(context.Background(), path)
	if err == nil {
		_, err = s.BeginRun(context.Background(), "game", time.Now())
		s.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the SQLite file "+path+" is read-only; make it and its directory writable")
}
