// Package clock is the time a client runs on: the wall's, or one a test
// moves. Every wait of the client (the rate limiter, a retry's backoff, a
// Retry-After, a watch's interval) and every timer (a stalled attempt) go
// through one, so a test runs them in no time.
package clock

import (
	"context"
	"time"
)

// Clock is what the client asks of the time.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) Timer
	// Sleep waits d or until ctx ends, whichever is first, and returns
	// ctx's error if it ended.
	Sleep(ctx context.Context, d time.Duration) error
}

// Timer is the part of *time.Timer the client uses.
type Timer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// Real is the clock of the wall.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Sleep waits on a timer or ctx.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
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
