package httpcache

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiskStoresAcrossInstances(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	a, err := OpenDisk(dir)
	require.NoError(t, err)
	a.Set("https://h/api/packages/game/x", []byte("value"))
	b, err := OpenDisk(dir)
	require.NoError(t, err)
	got, ok := b.Get("https://h/api/packages/game/x")
	assert.True(t, ok)
	assert.Equal(t, "value", string(got))
	b.Delete("https://h/api/packages/game/x")
	_, ok = a.Get("https://h/api/packages/game/x")
	assert.False(t, ok)

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no temporary file is left behind")
}

// entryPath is the path of the file of key's entry.
func entryPath(d *Disk, key string) string { return filepath.Join(d.dir, d.name(key)) }

func TestOpenDiskRefusesAPathUnderAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err := OpenDisk(filepath.Join(file, "sub"))
	assert.Error(t, err)
}

// A damaged file reads as a miss: truncated, emptied, a byte changed,
// garbage, or another key's entry put in its place.
func TestDiskDamagedFilesAreMisses(t *testing.T) {
	d, err := OpenDisk(t.TempDir())
	require.NoError(t, err)
	const key = "https://h/api/packages/game/x"
	d.Set(key, []byte("a value of some length"))
	good, err := os.ReadFile(entryPath(d, key))
	require.NoError(t, err)
	d.Set("other", []byte("another value"))
	other, err := os.ReadFile(entryPath(d, "other"))
	require.NoError(t, err)

	damaged := map[string][]byte{
		"empty":        {},
		"garbage":      []byte("not an entry at all"),
		"other key":    other,
		"magic only":   diskMagic,
		"header only":  good[:len(diskMagic)+4],
		"no last byte": good[:len(good)-1],
	}
	for i := range good {
		b := append([]byte(nil), good...)
		b[i]++
		damaged[fmt.Sprintf("byte %d changed", i)] = b
	}
	for name, b := range damaged {
		require.NoError(t, os.WriteFile(entryPath(d, key), b, 0o600))
		got, ok := d.Get(key)
		assert.False(t, ok, name)
		assert.Nil(t, got, name)
	}
}

// The directory made is its user's alone, parents included.
func TestOpenDiskMakesItsDirectoryPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parent", "cache")
	_, err := OpenDisk(dir)
	require.NoError(t, err)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		info, err := os.Stat(d)
		require.NoError(t, err)
		if runtime.GOOS != "windows" {
			assert.Equal(t, os.FileMode(0o700), info.Mode().Perm(), d)
		}
	}
}

// A symbolic link for the directory is refused, wherever it leads.
func TestOpenDiskRefusesALink(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	_, err := OpenDisk(link)
	var unsafe *UnsafeDirError
	require.ErrorAs(t, err, &unsafe)
	assert.Contains(t, err.Error(), "is a symbolic link")
	assert.Contains(t, err.Error(), "os.UserCacheDir()", "the error says what to do")
}

// An entry too large to be read back is not written, and the one it
// replaces is gone.
func TestDiskDoesNotWriteWhatItWouldNotRead(t *testing.T) {
	c, err := OpenDisk(t.TempDir())
	require.NoError(t, err)
	c.Set("k", []byte("small"))
	c.Set("k", make([]byte, maxDiskEntry))
	_, ok := c.Get("k")
	assert.False(t, ok)
	_, err = os.Stat(entryPath(c, "k"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
