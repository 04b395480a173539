// Package progress draws a long job's progress bar on a terminal's
// stderr (export's and sync's): items done of the total when it is known,
// the rate and the time left, drawn only from the job's own calls and
// left at the count reached when the job stops.
package progress

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Bar is a long job's bar on a terminal's stderr: items done of the
// total (when it is known), the rate and the time left. It shows what was
// done, never more: when the job stops, finished or cut short by Ctrl-C,
// the bar stays at the count reached, not at the total.
type Bar struct {
	bar *progressbar.ProgressBar
	w   io.Writer
	// done items are counted; the bar, redrawn at most every redraw, may
	// show fewer until the next redraw.
	done  int
	drawn time.Time
	start time.Time
	what  string
}

// redraw is how often the bar is drawn at most.
const redraw = 100 * time.Millisecond

// New draws a bar of total items (-1: unknown) on w at once, so
// that its clock starts with the job: the rate of its first item is that
// item's, not one item over the nanoseconds since the first redraw.
func New(w io.Writer, what string, total int) *Bar {
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(0),                 // Add throttles, so that stop draws the count exactly
		progressbar.OptionSetSpinnerChangeInterval(0), // no goroutine drawing behind stop
		progressbar.OptionSetWidth(30))
	bar.RenderBlank()
	now := time.Now()
	return &Bar{bar: bar, w: w, drawn: now, start: now, what: what}
}

// Add counts an item done.
func (p *Bar) Add() { p.Set(p.done + 1) }

// Set counts done items done in all.
func (p *Bar) Set(done int) {
	p.done = done
	if time.Since(p.drawn) >= redraw {
		p.flush()
	}
}

func (p *Bar) flush() {
	p.bar.Set(p.done)
	p.drawn = time.Now()
}

// Stop draws the count reached and leaves the bar there, on its own line.
func (p *Bar) Stop() {
	p.flush()
	p.bar.Exit()
	fmt.Fprintln(p.w)
}

// Finish ends a count whose total was unknown (a spinner) once the job
// has found it was total and done them all: the spinner's line is
// replaced by a finished one, what the job did and how long it took.
func (p *Bar) Finish(total int) {
	p.bar.Clear()
	p.bar.Exit()
	fmt.Fprintf(p.w, "%s 100%% (%d/%d) [%s]\n", p.what, total, total, time.Since(p.start).Round(time.Second))
}
