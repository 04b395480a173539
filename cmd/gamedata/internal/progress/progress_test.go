package progress

import (
	"bytes"
	"io"
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
	b := NewSyncBar(&w)
	b.Update(collect.Progress{Stage: collect.StageDirectory, Done: 0, Total: -1})
	b.Update(collect.Progress{Stage: collect.StageDirectory, Done: 100, Total: -1})
	p := New(&w, "export", -1)
	var stacks strings.Builder
	assert.NoError(t, pprof.Lookup("goroutine").WriteTo(&stacks, 1))
	assert.NotContains(t, stacks.String(), "progressbar", "a goroutine of the bar's library draws behind the caller")
	p.Stop()
	b.End()
}

// The bar's clock runs from its making.
func TestProgressStartsAtOnce(t *testing.T) {
	t.Parallel()
	p := New(io.Discard, "export", 10)
	assert.True(t, p.bar.IsStarted())
	p.Stop()
}
