package main

import (
	"fmt"
	"io"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
	"github.com/schollz/progressbar/v3"
)

// syncBar shows a sync's progress on a terminal's stderr: a bar a stage,
// with the items done, their rate and the time left (a count while the
// directory, whose length the service does not say, is walked). A stage
// that ends short of its total (an interrupt) leaves its bar where it
// stopped.
type syncBar struct {
	w     io.Writer
	stage string
	bar   *progressbar.ProgressBar
}

func newSyncBar(w io.Writer) *syncBar { return &syncBar{w: w} }

// update is the run's Progress callback.
func (b *syncBar) update(p collect.Progress) {
	if p.Stage != b.stage {
		b.end()
		b.stage = p.Stage
		if p.Total == 0 {
			return // nothing due: no bar
		}
		b.bar = progressbar.NewOptions(p.Total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription("sync: "+p.Stage),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("items"),
			progressbar.OptionSetPredictTime(p.Total > 0),
			// A count of unknown length is updated a page at a time:
			// show every update, or the last may never be drawn.
			progressbar.OptionThrottle(throttle(p.Total)),
			progressbar.OptionSetWidth(30))
	}
	if b.bar != nil {
		b.bar.Set(p.Done)
	}
}

// throttle is how often a bar of total items is drawn at most.
func throttle(total int) time.Duration {
	if total < 0 {
		return 0
	}
	return 100 * time.Millisecond
}

// end leaves the current bar as it is and moves to the next line.
func (b *syncBar) end() {
	if b.bar == nil {
		return
	}
	b.bar.Exit()
	fmt.Fprintln(b.w)
	b.bar = nil
}
