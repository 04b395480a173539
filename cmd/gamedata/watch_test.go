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
