package gamedata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiskCacheStoresAcrossInstances(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	a, err := NewDiskCache(dir)
	require.NoError(t, err)
	a.Set("https://h/api/packages/game/x", []byte("value"))
	b, err := NewDiskCache(dir)
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

func TestNewDiskCacheRefuses(t *testing.T) {
	_, err := NewDiskCache("")
	assert.Error(t, err)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	_, err = NewDiskCache(filepath.Join(file, "sub"))
	assert.Error(t, err)
}

// A damaged file reads as a miss: truncated, emptied, a byte changed,
// garbage, or another key's entry put in its place.
func TestDiskCacheDamagedFilesAreMisses(t *testing.T) {
	c, err := NewDiskCache(t.TempDir())
	require.NoError(t, err)
	d := c.(*diskCache)
	const key = "https://h/api/packages/game/x"
	c.Set(key, []byte("a value of some length"))
	good, err := os.ReadFile(d.path(key))
	require.NoError(t, err)
	c.Set("other", []byte("another value"))
	other, err := os.ReadFile(d.path("other"))
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
		require.NoError(t, os.WriteFile(d.path(key), b, 0o600))
		got, ok := c.Get(key)
		assert.False(t, ok, name)
		assert.Nil(t, got, name)
	}
}
