package gamedatatest

import (
	"sync"
	"time"
)

// fakeClock is a clock whose time moves only when a test says: Now is
// fixed until advance, and a timer fires only when the test calls fire.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	pending []chan time.Time
	// started receives the duration of every timer started, so that a
	// test can wait for the server to be waiting.
	started chan time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), started: make(chan time.Duration, 16)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Timer(d time.Duration) (<-chan time.Time, func() bool) {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	c.pending = append(c.pending, ch)
	c.mu.Unlock()
	c.started <- d
	return ch, func() bool { return false }
}

// advance moves the time on by d; timers do not fire.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fire fires every timer started so far.
func (c *fakeClock) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range c.pending {
		ch <- c.now
	}
	c.pending = nil
}
