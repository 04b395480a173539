package pace

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/clock/clocktest"
)

func TestPacerSpreadsPolls(t *testing.T) {
	clk := clocktest.New()
	p := New(clk, time.Second, 1, 0.5)
	for range 1001 {
		require.NoError(t, p.Wait(context.Background()))
	}
	require.Len(t, clk.Slept(), 1000, "the first poll does not wait")
	var total time.Duration
	for _, d := range clk.Slept() {
		assert.GreaterOrEqual(t, d, 500*time.Millisecond)
		assert.LessOrEqual(t, d, 1500*time.Millisecond)
		total += d
	}
	assert.InDelta(t, 1000, total.Seconds(), 50, "the gaps average the interval")
	assert.NotEqual(t, clk.Slept()[0], clk.Slept()[1], "the gaps are jittered")
}

func TestPacerCountsTheTimeAPollTook(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moved time.Duration // between two waits: a poll, or the clock jumping
		want  time.Duration
	}{
		{"a quick poll", 100 * time.Millisecond, 900 * time.Millisecond},
		{"a slow poll", 5 * time.Second, 0},
		{"clock jumps forward", 24 * time.Hour, 0},
		{"clock jumps back", -24 * time.Hour, time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := clocktest.New()
			p := New(clk, time.Second, 1, 0)
			require.NoError(t, p.Wait(context.Background()))
			clk.Advance(tc.moved)
			require.NoError(t, p.Wait(context.Background()))
			require.NoError(t, p.Wait(context.Background()))
			assert.Equal(t, []time.Duration{tc.want, time.Second}, clk.Slept(), "one poll at most comes early, and none late")
		})
	}
}

func TestFullReadGuard(t *testing.T) {
	clk := clocktest.New()
	var g Guard
	assert.True(t, g.Due(clk.Now()), "the first poll is a full read")
	g.Polled(clk.Now(), true, false)
	for range FullEvery {
		assert.False(t, g.Due(clk.Now()))
		g.Polled(clk.Now(), false, false)
	}
	assert.True(t, g.Due(clk.Now()), "due after FullEvery unchanged polls")

	g.Polled(clk.Now(), true, false)
	g.Polled(clk.Now(), false, true)
	assert.Zero(t, g.unchanged, "a change shows the validator works")
	clk.Advance(FullAge)
	assert.True(t, g.Due(clk.Now()), "due after FullAge")
	assert.True(t, g.Due(clk.Now().Add(-2*FullAge)), "due when the clock went back")
}
