package progress

import (
	"io"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
)

// SyncBar shows a sync's progress on a terminal's stderr: a bar a stage,
// with the items done, their rate and the time left (a count while the
// directory, whose length the service does not say, is walked; a walk
// that reaches its end becomes a bar at its total, finished). A stage
// that ends short of its total (an interrupt) leaves its bar where it
// stopped. Each bar is a Bar, drawn only from the run's own calls,
// so nothing writes to stderr behind the summary.
type SyncBar struct {
	w     io.Writer
	stage string
	total int // the current stage's, -1 while unknown
	bar   *Bar
}

func NewSyncBar(w io.Writer) *SyncBar { return &SyncBar{w: w} }

// Update is the run's Progress callback.
func (b *SyncBar) Update(p collect.Progress) {
	if p.Stage != b.stage {
		b.End()
		b.stage = p.Stage
		if p.Total == 0 {
			return // nothing due: no bar
		}
		b.bar = New(b.w, "sync: "+p.Stage, p.Total)
		b.total = p.Total
	}
	if b.bar == nil {
		return
	}
	if b.total < 0 && p.Total >= 0 { // the directory's length, once its walk ended
		b.bar.Finish(p.Total)
		b.bar = nil
		return
	}
	b.bar.Set(p.Done)
}

// End leaves the current bar as it is and moves to the next line.
func (b *SyncBar) End() {
	if b.bar == nil {
		return
	}
	b.bar.Stop()
	b.bar = nil
}
