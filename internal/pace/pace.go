// Package pace spaces the polls of a watch over its interval, bounds the
// wait a Retry-After adds to them, and says when a poll should read in
// full rather than ask a validator.
package pace

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/gamedata-go/gamedata/internal/clock"
)

// A Retry-After delays a watch's next poll, but never past a bound of the
// watch's own: a service that asks for a year (or a proxy that sends a
// broken header) must not silence a watch. The bound is a few intervals,
// and never more than an hour.
const (
	maxDelayIntervals = 4
	maxDelay          = time.Hour
)

// Pacer spaces polls: it waits gap, jittered, between the starts of two
// polls. The time a poll took counts towards the gap, but only up to the
// gap: a clock that jumps forward allows one poll at once, never a burst,
// and one that jumps back delays a poll by at most one gap, never a stall.
type Pacer struct {
	clock  clock.Clock
	gap    time.Duration
	jitter float64 // the gap varies by up to ± this fraction
	last   time.Time
	// most bounds the wait a Retry-After may add.
	most time.Duration
	// extra is a longer wait that the service asked for with Retry-After.
	extra time.Duration
}

// New paces polls on clk so that each of n things is polled once per
// interval every, the gaps jittered by up to ± jitter of themselves.
func New(clk clock.Clock, every time.Duration, n int, jitter float64) *Pacer {
	return &Pacer{
		clock:  clk,
		gap:    every / time.Duration(n),
		jitter: jitter,
		most:   min(maxDelayIntervals*every, maxDelay),
	}
}

// Wait returns when the next poll may start, or with ctx's error.
func (p *Pacer) Wait(ctx context.Context) error {
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

// Delay makes the next poll wait asked, a Retry-After, within the pacer's
// bound, and returns about how long it waits: the wait kept, or the usual
// gap when that is longer (less the jitter).
func (p *Pacer) Delay(asked time.Duration) time.Duration {
	p.extra = min(asked, p.most)
	return max(p.extra, p.gap)
}

// The guard against a validator that answers 304 forever although the
// content changed (a stale ETag): after this many polls of a record
// without a change, or this long since its last full read, the next poll
// reads it in full.
const (
	FullEvery = 16
	FullAge   = time.Hour
)

// Guard tells when a watched record is due for a full read.
type Guard struct {
	unchanged int
	lastFull  time.Time
}

// Due tells whether the next poll should be a full read. A clock that
// jumps can only make it due early, which costs one body.
func (g *Guard) Due(now time.Time) bool {
	return g.lastFull.IsZero() || g.unchanged >= FullEvery || now.Sub(g.lastFull) >= FullAge || now.Before(g.lastFull)
}

// Polled records a poll; full says it was a full read.
func (g *Guard) Polled(now time.Time, full, changed bool) {
	switch {
	case full:
		g.unchanged, g.lastFull = 0, now
	case changed:
		g.unchanged = 0
	default:
		g.unchanged++
	}
}
