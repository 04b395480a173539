package main

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watch prints every game as added in its first round, then a game the
// twin adds, one NDJSON line as each change is seen, until interrupted;
// interrupted, it exits 0. The test waits on the lines themselves, never
// on the clock.
func TestWatch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr := newLineWriter(), newLineWriter()
	done := make(chan int, 1)
	ended, stop := context.WithCancel(context.Background())
	go func() {
		done <- run(ctx, []string{"--base-url", twin.URL, "--rate", "0", "watch", "--kind", "game", "--every", "20ms"}, stdout, stderr)
		stop()
	}()
	change := func() map[string]any {
		t.Helper()
		var m map[string]any
		line := stdout.next(t, ended)
		require.NoError(t, json.Unmarshal([]byte(line), &m), line)
		return m
	}
	for range games {
		c := change()
		assert.Equal(t, "added", c["op"])
		assert.Nil(t, c["old"])
	}
	require.NoError(t, twin.AddPackage("game", "brand-new", "Brand New"))
	c := change()
	assert.Equal(t, "added", c["op"])
	assert.Equal(t, "brand-new", c["new"].(map[string]any)["ident"])
	cancel()
	assert.Equal(t, 0, <-done, "interrupted, a watch is over, not failed")
	assert.Empty(t, stderr.String())
}
