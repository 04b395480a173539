package har

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteAndRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "r.har")
	f := &File{Log: Log{Version: Version, Creator: Creator{Name: "t", Version: "1"}, Entries: []Entry{{
		Request:  Request{Method: "GET", URL: "http://x.invalid/a?b=<c>&d"},
		Response: Response{Status: 200, Content: NewContent([]byte("<html>&</html>"), "text/html")},
	}}}}
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	require.NoError(t, Write(path, f))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"url": "http://x.invalid/a?b=<c>&d"`, "no HTML escapes")
	assert.Equal(t, byte('\n'), b[len(b)-1])
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left")

	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, f, got)
	require.NoError(t, Write(path, got))
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(again), "the same File, the same bytes")
}

func TestWriteFailureKeepsTheOldFile(t *testing.T) {
	t.Parallel()
	err := Write(filepath.Join(t.TempDir(), "missing", "r.har"), &File{})
	assert.Error(t, err)

	dir := t.TempDir()
	path := filepath.Join(dir, "r.har")
	require.NoError(t, os.Mkdir(path, 0o755)) // a directory where the file goes: the rename fails
	assert.Error(t, Write(path, &File{Log: Log{Version: Version}}))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "the temporary file is removed")
}

func TestReadRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"not JSON":    "{",
		"HAR 1.1":     `{"log":{"version":"1.1"}}`,
		"no log":      `{}`,
		"not an HAR ": `[1,2]`,
	} {
		path := filepath.Join(dir, "f.har")
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		_, err := Read(path)
		assert.Error(t, err, name)
	}
	_, err := Read(filepath.Join(dir, "missing.har"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}
