package main

import (
	"testing"

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
