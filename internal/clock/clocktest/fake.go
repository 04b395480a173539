// Package clocktest is the fake clock of the SDK's tests: its time moves
// only when a test advances it or sleeps on it.
package clocktest

import (
	"context"
	"sync"
	"time"

	"github.com/gamedata-go/gamedata/internal/clock"
)

// Fake is a clock.Clock whose time moves only when a test advances it or
// sleeps on it: a sleep returns at once, having moved the time on by its
// duration, and timers run when the time passes theirs. It is safe for
// concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
	slept  []time.Duration
}

type timer struct {
	ft     *Fake
	at     time.Time
	f      func()
	active bool
}

// New returns a Fake at 2026-11-22T12:00:00Z.
func New() *Fake {
	return &Fake{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
}

// Now is the fake time.
func (ft *Fake) Now() time.Time {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return ft.now
}

// AfterFunc runs f once the time has moved past d from now.
func (ft *Fake) AfterFunc(d time.Duration, f func()) clock.Timer {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	t := &timer{ft: ft, at: ft.now.Add(d), f: f, active: true}
	ft.timers = append(ft.timers, t)
	return t
}

func (t *timer) Reset(d time.Duration) bool {
	t.ft.mu.Lock()
	defer t.ft.mu.Unlock()
	was := t.active
	t.at, t.active = t.ft.now.Add(d), true
	return was
}

func (t *timer) Stop() bool {
	t.ft.mu.Lock()
	defer t.ft.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

// Advance moves the time on by d and runs the timers that came due.
func (ft *Fake) Advance(d time.Duration) {
	ft.mu.Lock()
	ft.now = ft.now.Add(d)
	var due []func()
	for _, t := range ft.timers {
		if t.active && !t.at.After(ft.now) {
			t.active = false
			due = append(due, t.f)
		}
	}
	ft.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// Sleep records d and moves the time on by it, at once; it returns ctx's
// error instead when ctx has ended.
func (ft *Fake) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ft.mu.Lock()
	ft.slept = append(ft.slept, d)
	ft.mu.Unlock()
	ft.Advance(max(d, 0))
	return nil
}

// Slept returns the durations of every Sleep so far, in order.
func (ft *Fake) Slept() []time.Duration {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return append([]time.Duration(nil), ft.slept...)
}
