package gamedata

import (
	"context"
	"time"
)

// timeSource is the client's time: the cache's ages and Watch's waits go
// through it, so tests run them on a fake clock.
type timeSource struct {
	now func() time.Time
	// sleep waits d or until ctx ends, whichever is first, and returns
	// ctx's error if it ended.
	sleep func(ctx context.Context, d time.Duration) error
}

var systemTime = timeSource{now: time.Now, sleep: sleepContext}

func sleepContext(ctx context.Context, d time.Duration) error {
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
