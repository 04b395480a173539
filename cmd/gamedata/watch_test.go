package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is a buffer that a running command writes while a test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// watch prints every game as added in its first round, then a game the
// twin adds, as NDJSON, until interrupted; interrupted, it exits 0.
func TestWatch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"--base-url", twin.URL, "--rate", "0", "watch", "--kind", "game", "--every", "20ms"}, &stdout, &stderr)
	}()
	lines := func() []map[string]any { return ndjson(t, stdout.String()) }
	require.Eventually(t, func() bool { return len(lines()) >= games }, 5*time.Second, 5*time.Millisecond)
	for _, l := range lines()[:games] {
		assert.Equal(t, "added", l["op"])
		assert.Nil(t, l["old"])
	}
	require.NoError(t, twin.AddPackage("game", "brand-new", "Brand New"))
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), `"ident":"brand-new"`) }, 5*time.Second, 5*time.Millisecond)
	cancel()
	assert.Equal(t, 0, <-done, stderr.String())
	last := lines()[len(lines())-1]
	assert.Equal(t, "added", last["op"])
}

// With --cache-dir a second run revalidates what the first stored: the
// twin answers 304.
func TestCacheDir(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	for range 2 {
		code, out, errOut := cli(t, twin, "--cache-dir", dir, "get", "package", ref, "-o", "json")
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, pkg.Ident)
	}
	reqs := twin.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, 200, reqs[0].Status)
	assert.Equal(t, 304, reqs[1].Status, "the second run sent a conditional request")
}
