//go:build unix

package httpcache

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nobody is the uid of "another user" in these tests.
const nobody = 65534

// asAnotherUser gives path to another user; only root can, so the test is
// skipped otherwise.
func asAnotherUser(t *testing.T, paths ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root: run the tests as root to cover this case")
	}
	for _, p := range paths {
		require.NoError(t, os.Lchown(p, nobody, nobody))
	}
}

// A directory another user controls is refused: one they own, one its
// group or others may write. One of the user's own that others may only
// read is fine.
func TestOpenDiskRefusesADirectoryOthersControl(t *testing.T) {
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, dir string)
		says    string // "" when the directory is accepted
	}{
		{"owned by another user", func(t *testing.T, dir string) { asAnotherUser(t, dir) }, "belongs to user 65534"},
		{"writable by others", func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o777)) }, "may be written by its group or others (mode -rwxrwxrwx"},
		{"writable by its group", func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o770)) }, "may be written by its group or others"},
		{"sticky and writable by all, as /tmp", func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky)) }, "may be written"},
		{"readable by others", func(t *testing.T, dir string) { require.NoError(t, os.Chmod(dir, 0o755)) }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			require.NoError(t, os.Mkdir(dir, 0o700))
			tc.prepare(t, dir)
			c, err := OpenDisk(dir)
			if tc.says == "" {
				require.NoError(t, err)
				return
			}
			assert.Nil(t, c)
			var unsafe *UnsafeDirError
			require.ErrorAs(t, err, &unsafe)
			assert.Contains(t, err.Error(), tc.says)
			assert.Contains(t, err.Error(), "could plant entries", "the error says why")
			assert.Contains(t, err.Error(), "use a directory of your own, such as under os.UserCacheDir()", "and what to do")
		})
	}
}

// Whatever sits in an entry's place that is not a regular file of the
// cache's user reads as a miss, at once and without reading past the
// bound: a FIFO (whose open would wait for a writer), a link to /dev/zero
// (endless), a link to a good entry, a sparse file of a GiB, a file one
// byte over the bound, and an entry another user wrote.
func TestDiskEntriesThatAreNotItsOwnAreMisses(t *testing.T) {
	const key = "https://h/api/packages/game/x"
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, d *Disk, path string)
	}{
		{"a FIFO", func(t *testing.T, d *Disk, path string) {
			require.NoError(t, syscall.Mkfifo(path, 0o600))
		}},
		{"a link to /dev/zero", func(t *testing.T, d *Disk, path string) {
			require.NoError(t, os.Symlink("/dev/zero", path))
		}},
		{"a link to a good entry", func(t *testing.T, d *Disk, path string) {
			good := filepath.Join(d.dir, "elsewhere")
			require.NoError(t, os.WriteFile(good, encodeDiskEntry(key, []byte("value")), 0o600))
			require.NoError(t, os.Symlink(good, path))
		}},
		{"a sparse file of a GiB", func(t *testing.T, d *Disk, path string) {
			f, err := os.Create(path)
			require.NoError(t, err)
			require.NoError(t, f.Truncate(1<<30))
			require.NoError(t, f.Close())
		}},
		{"a file one byte over the bound", func(t *testing.T, d *Disk, path string) {
			b := encodeDiskEntry(key, make([]byte, maxDiskEntry))
			require.NoError(t, os.WriteFile(path, b[:maxDiskEntry+1], 0o600))
		}},
		{"an entry of another user", func(t *testing.T, d *Disk, path string) {
			require.NoError(t, os.WriteFile(path, encodeDiskEntry(key, []byte("value")), 0o600))
			asAnotherUser(t, path)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := OpenDisk(t.TempDir())
			require.NoError(t, err)
			path := entryPath(d, key)
			tc.plant(t, d, path)

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			done := make(chan bool)
			go func() {
				_, ok := d.Get(key)
				done <- ok
			}()
			select {
			case ok := <-done:
				assert.False(t, ok)
			case <-time.After(time.Minute):
				// A failure detector, not a timing: a Get that hangs on
				// the FIFO is let go by a writer.
				if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				t.Fatal("Get did not return")
			}
			runtime.ReadMemStats(&after)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "nothing read past the bound, nor up to it")
		})
	}
}

// The open itself does not wait on a FIFO, should one take an entry's
// place between the check of its name and the open.
func TestDiskOpenDoesNotWaitOnAFIFO(t *testing.T) {
	d, err := OpenDisk(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, syscall.Mkfifo(filepath.Join(d.dir, "fifo"), 0o600))
	f, err := d.root.OpenFile("fifo", os.O_RDONLY|entryOpenFlags, 0)
	require.NoError(t, err, "opened at once, with no writer")
	info, err := f.Stat()
	require.NoError(t, err)
	assert.False(t, info.Mode().IsRegular())
	require.NoError(t, f.Close())
}
