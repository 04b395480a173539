package main

import (
	"bytes"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
	"github.com/stretchr/testify/assert"
)

// A bar is drawn only from its caller's calls: no goroutine of the bar's
// library draws behind it, which would write to stderr after the bar
// stopped (over the next bar's line, or the summary) and race with the
// command's own lines. A bar of unknown length, the directory stage of a
// sync, is the case that started one.
func TestProgressDrawsOnlyFromItsCaller(t *testing.T) {
	var w bytes.Buffer
	b := newSyncBar(&w)
	b.update(collect.Progress{Stage: collect.StageDirectory, Done: 0, Total: -1})
	b.update(collect.Progress{Stage: collect.StageDirectory, Done: 100, Total: -1})
	p := newProgress(&w, "export", -1)
	var stacks strings.Builder
	assert.NoError(t, pprof.Lookup("goroutine").WriteTo(&stacks, 1))
	assert.NotContains(t, stacks.String(), "progressbar", "a goroutine of the bar's library draws behind the caller")
	p.stop()
	b.end()
}
