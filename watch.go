package gamedata

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"time"

	"github.com/gamedata-go/gamedata/internal/clock"
)

// Op is the kind of a Change.
type Op int

const (
	// Added is a record seen for the first time, or again after it was
	// Removed.
	Added Op = iota + 1
	// Updated is a record whose content changed.
	Updated
	// Removed is a record that is gone: a package that answers 404, an
	// entry no longer in the directory.
	Removed
)

// String returns "added", "updated" or "removed".
func (o Op) String() string {
	switch o {
	case Added:
		return "added"
	case Updated:
		return "updated"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Change is a change that Watch saw. Old is the zero T for Added, New the
// zero T for Removed.
type Change[T any] struct {
	Op       Op
	Old, New T
}

// The guard against a validator that answers 304 forever although the
// content changed (a stale ETag): after this many polls of a record
// without a change, or this long since its last full read, the next poll
// reads it in full.
const (
	watchFullEvery = 16
	watchFullAge   = time.Hour
)

// fullReadGuard tells when a watched record is due for a full read.
type fullReadGuard struct {
	unchanged int
	lastFull  time.Time
}

// due tells whether the next poll should be a full read. A clock that
// jumps can only make it due early, which costs one body.
func (g *fullReadGuard) due(now time.Time) bool {
	return g.lastFull.IsZero() || g.unchanged >= watchFullEvery || now.Sub(g.lastFull) >= watchFullAge || now.Before(g.lastFull)
}

// polled records a poll; full says it was a full read.
func (g *fullReadGuard) polled(now time.Time, full, changed bool) {
	switch {
	case full:
		g.unchanged, g.lastFull = 0, now
	case changed:
		g.unchanged = 0
	default:
		g.unchanged++
	}
}

// pollConfig is the call options of a poll: the watch's, but for its use
// of the cache, which wins over theirs: a full read skips the cache; any
// other poll sends a conditional request whatever the entry's freshness.
func pollConfig(cfg callConfig, full bool) callConfig {
	cfg.mode = CacheRevalidate
	if full {
		cfg.mode = CacheSkip
	}
	return cfg
}

// A Retry-After delays a watch's next poll, but never past a bound of the
// watch's own: a service that asks for a year (or a proxy that sends a
// broken header) must not silence a watch. The bound is a few intervals,
// and never more than an hour.
const (
	watchMaxDelayIntervals = 4
	watchMaxDelay          = time.Hour
)

// pacer spaces polls: it waits gap, jittered, between the starts of two
// polls. The time a poll took counts towards the gap, but only up to the
// gap: a clock that jumps forward allows one poll at once, never a burst,
// and one that jumps back delays a poll by at most one gap, never a stall.
type pacer struct {
	clock  clock.Clock
	gap    time.Duration
	jitter float64 // the gap varies by up to ± this fraction
	last   time.Time
	// most bounds the wait a Retry-After may add.
	most time.Duration
	// extra is a longer wait that the service asked for with Retry-After.
	extra time.Duration
}

// newPacer paces polls so that each of n things is polled once per
// interval every.
func newPacer(clk clock.Clock, every time.Duration, n int, jitter float64) pacer {
	return pacer{
		clock:  clk,
		gap:    every / time.Duration(n),
		jitter: jitter,
		most:   min(watchMaxDelayIntervals*every, watchMaxDelay),
	}
}

// wait returns when the next poll may start, or with ctx's error.
func (p *pacer) wait(ctx context.Context) error {
	if p.last.IsZero() {
		p.last = p.clock.Now()
		return ctx.Err()
	}
	gap := time.Duration(float64(p.gap) * (1 + p.jitter*(2*rand.Float64()-1)))
	elapsed := min(max(0, p.clock.Now().Sub(p.last)), gap)
	d := max(gap-elapsed, p.extra)
	p.extra = 0
	if err := p.clock.Sleep(ctx, d); err != nil {
		return err
	}
	p.last = p.clock.Now()
	return nil
}

// failed notes a failed poll whose error is err, a *PageError or an
// *ItemError that locates it. A Retry-After that the client did not wait
// out (it was beyond the backoff maximum, or the retries ran out) delays
// the next poll, up to the pacer's bound, and the error returned says so
// with a *WatchDelayError inside the one that locates it; any other err is
// returned as it is.
func (p *pacer) failed(err error) error {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter <= 0 {
		return err
	}
	p.extra = min(apiErr.RetryAfter, p.most)
	delayed := func(err error) error {
		return &WatchDelayError{RetryAfter: apiErr.RetryAfter, Wait: max(p.extra, p.gap), Err: err}
	}
	switch e := err.(type) {
	case *PageError:
		return &PageError{Page: e.Page, Err: delayed(e.Err)}
	case *ItemError:
		return &ItemError{Index: e.Index, Err: delayed(e.Err)}
	}
	return delayed(err)
}

// pollLoop is the loop of every watch: it polls the n targets of the
// watch in turn (the packages of Packages.Watch, the one directory of
// Dashboard.Watch), each once per interval every, the polls spread over
// the interval with jitter rather than sent in a burst, and yields what
// each poll reports: its changes, or its error, after which the watch
// goes on. poll(ctx, i, full) polls target i, in full when full (see
// fullReadGuard), and returns the changes since its last poll; an error
// it returns locates the target (a *PageError or an *ItemError). The loop
// ends, with nothing yielded, when ctx ends or yield returns false.
func pollLoop[C any](ctx context.Context, clk clock.Clock, every time.Duration, n int, jitter float64, poll func(ctx context.Context, i int, full bool) (iter.Seq[C], error), yield func(C, error) bool) {
	var zero C
	pace := newPacer(clk, every, n, jitter)
	guards := make([]fullReadGuard, n)
	for {
		for i := range guards {
			if pace.wait(ctx) != nil {
				return
			}
			full := guards[i].due(clk.Now())
			changes, err := poll(ctx, i, full)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				if !yield(zero, pace.failed(err)) {
					return
				}
				continue
			}
			changed := false
			for ch := range changes {
				changed = true
				if !yield(ch, nil) {
					return
				}
			}
			guards[i].polled(clk.Now(), full, changed)
		}
	}
}

// checkWatch refuses a watch before it starts: a client not made by
// NewClient, a nil context, an interval not above 0, a bad call option. It
// returns the client of s and the options resolved.
func checkWatch(ctx context.Context, s *service, every time.Duration, opts []CallOption) (*Client, callConfig, error) {
	c, err := s.ready()
	switch {
	case err != nil:
		return nil, callConfig{}, err
	case ctx == nil:
		return nil, callConfig{}, invalidArgument("Watch: nil context")
	case every <= 0:
		return nil, callConfig{}, invalidArgument("Watch: interval %s, want more than 0", every)
	}
	cfg, err := resolveOptions(ctx, opts)
	return c, cfg, err
}
