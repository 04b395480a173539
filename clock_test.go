package gamedata

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// fakeTime is a clock that moves only when told to or when slept on: a
// sleep returns at once, having moved the clock on by its duration.
type fakeTime struct {
	mu    sync.Mutex
	t     time.Time
	slept []time.Duration
}

func newFakeTime() *fakeTime { return &fakeTime{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)} }

func (f *fakeTime) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeTime) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func (f *fakeTime) sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slept = append(f.slept, d)
	if d > 0 {
		f.t = f.t.Add(d)
	}
	return nil
}

func (f *fakeTime) source() timeSource { return timeSource{now: f.now, sleep: f.sleep} }

func TestSleepContext(t *testing.T) {
	assert.NoError(t, sleepContext(context.Background(), time.Millisecond))
	assert.NoError(t, sleepContext(context.Background(), -time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, sleepContext(ctx, time.Hour), context.Canceled)
	assert.ErrorIs(t, sleepContext(ctx, 0), context.Canceled)
}
