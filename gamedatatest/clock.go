package gamedatatest

import "time"

// clock is the time the twin's rate limit and latency run on: the wall's,
// or, in this package's tests, a fake one given with withClock.
type clock interface {
	Now() time.Time
	// Timer starts a timer of d, and returns its channel and its Stop.
	Timer(d time.Duration) (<-chan time.Time, func() bool)
}

// wallClock is the clock of the wall.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	t := time.NewTimer(d)
	return t.C, t.Stop
}
