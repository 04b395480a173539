package clock

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRealClockSleep(t *testing.T) {
	assert.NoError(t, Real{}.Sleep(context.Background(), time.Millisecond))
	assert.NoError(t, Real{}.Sleep(context.Background(), -time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, Real{}.Sleep(ctx, time.Hour), context.Canceled)
	assert.ErrorIs(t, Real{}.Sleep(ctx, 0), context.Canceled)
}
