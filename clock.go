package gamedata

import (
	"context"
	"time"
)

// clock is the time a client runs on: its attempts' stall timers, its
// adaptive rate, its cache's ages and Watch's waits. Tests use a fake one.
type clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) timer
	// Sleep waits d or until ctx ends, whichever is first, and returns
	// ctx's error if it ended.
	Sleep(ctx context.Context, d time.Duration) error
}

// timer is the part of *time.Timer the client uses.
type timer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// realClock is the clock of the wall.
type realClock struct{}

func (realClock) Now() time.Time                            { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
