package gamedata

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSleepContext(t *testing.T) {
	assert.NoError(t, sleepContext(context.Background(), time.Millisecond))
	assert.NoError(t, sleepContext(context.Background(), -time.Second))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, sleepContext(ctx, time.Hour), context.Canceled)
	assert.ErrorIs(t, sleepContext(ctx, 0), context.Canceled)
}
