package gamedata

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpString(t *testing.T) {
	assert.Equal(t, "added", Added.String())
	assert.Equal(t, "updated", Updated.String())
	assert.Equal(t, "removed", Removed.String())
	assert.Equal(t, "Op(0)", Op(0).String())
}

func TestPacerSpreadsPolls(t *testing.T) {
	clk := newFakeClock()
	p := pacer{clock: clk, gap: time.Second, jitter: 0.5}
	for range 1001 {
		require.NoError(t, p.wait(context.Background()))
	}
	require.Len(t, clk.slept, 1000, "the first poll does not wait")
	var total time.Duration
	for _, d := range clk.slept {
		assert.GreaterOrEqual(t, d, 500*time.Millisecond)
		assert.LessOrEqual(t, d, 1500*time.Millisecond)
		total += d
	}
	assert.InDelta(t, 1000, total.Seconds(), 50, "the gaps average the interval")
	assert.NotEqual(t, clk.slept[0], clk.slept[1], "the gaps are jittered")
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
			clk := newFakeClock()
			p := pacer{clock: clk, gap: time.Second}
			require.NoError(t, p.wait(context.Background()))
			clk.advance(tc.moved)
			require.NoError(t, p.wait(context.Background()))
			require.NoError(t, p.wait(context.Background()))
			assert.Equal(t, []time.Duration{tc.want, time.Second}, clk.slept, "one poll at most comes early, and none late")
		})
	}
}

func TestPacerHonoursRetryAfter(t *testing.T) {
	clk := newFakeClock()
	p := newPacer(clk, time.Second, 1, 0)
	require.NoError(t, p.wait(context.Background()))
	apiErr := &APIError{StatusCode: 429, RetryAfter: 3 * time.Second}
	err := p.failed(&ItemError{Index: 2, Err: apiErr})
	want := &ItemError{Index: 2, Err: &WatchDelayError{RetryAfter: 3 * time.Second, Wait: 3 * time.Second, Err: apiErr}}
	assert.Equal(t, want, err, "the delay is said inside the error that locates the poll")
	require.NoError(t, p.wait(context.Background()))
	other := errors.New("network")
	assert.Equal(t, other, p.failed(other), "an error without Retry-After is said as it is")
	require.NoError(t, p.wait(context.Background()))
	assert.Equal(t, []time.Duration{3 * time.Second, time.Second}, clk.slept)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, p.wait(ctx), context.Canceled)

	page := p.failed(&PageError{Page: 3, Err: apiErr})
	assert.Equal(t, &PageError{Page: 3, Err: &WatchDelayError{RetryAfter: 3 * time.Second, Wait: 3 * time.Second, Err: apiErr}}, page)
}

// However long the service asks a watch to wait, it waits at most four of
// its intervals, and never more than an hour, and says so.
func TestPacerBoundsRetryAfter(t *testing.T) {
	const year = 365 * 24 * time.Hour
	for _, tc := range []struct {
		name  string
		every time.Duration
		polls int
		want  time.Duration
	}{
		{"one poll a minute", time.Minute, 1, 4 * time.Minute},
		{"ten polls a minute", time.Minute, 10, 4 * time.Minute},
		{"one poll every two hours", 2 * time.Hour, 1, 2 * time.Hour},
		{"one poll every twenty minutes", 20 * time.Minute, 1, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			p := newPacer(clk, tc.every, tc.polls, 0)
			require.NoError(t, p.wait(context.Background()))
			err := p.failed(&APIError{StatusCode: 429, RetryAfter: year})
			var delay *WatchDelayError
			require.ErrorAs(t, err, &delay)
			assert.Equal(t, year, delay.RetryAfter)
			assert.Equal(t, tc.want, delay.Wait)
			assert.Contains(t, err.Error(), "the service asked to wait 8760h0m0s, longer than a watch waits; the next poll is in "+tc.want.String()+": ")
			require.NoError(t, p.wait(context.Background()))
			assert.Equal(t, []time.Duration{tc.want}, clk.slept, "the interval itself, or the bound")
		})
	}
}

func TestFullReadGuard(t *testing.T) {
	clk := newFakeClock()
	var g fullReadGuard
	assert.True(t, g.due(clk.Now()), "the first poll is a full read")
	g.polled(clk.Now(), true, false)
	for range watchFullEvery {
		assert.False(t, g.due(clk.Now()))
		g.polled(clk.Now(), false, false)
	}
	assert.True(t, g.due(clk.Now()), "due after watchFullEvery unchanged polls")

	g.polled(clk.Now(), true, false)
	g.polled(clk.Now(), false, true)
	assert.Zero(t, g.unchanged, "a change shows the validator works")
	clk.advance(watchFullAge)
	assert.True(t, g.due(clk.Now()), "due after watchFullAge")
	assert.True(t, g.due(clk.Now().Add(-2*watchFullAge)), "due when the clock went back")
}

func TestWatchRefusesBadArguments(t *testing.T) {
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	var nilContext context.Context
	errs := func(seq func(func(Change[*Package], error) bool)) (out []error) {
		for _, err := range seq {
			out = append(out, err)
		}
		return out
	}
	entryErrs := func(seq func(func(Change[DashboardEntry], error) bool)) (out []error) {
		for _, err := range seq {
			out = append(out, err)
		}
		return out
	}
	for name, got := range map[string][]error{
		"no interval":           errs(c.Packages.Watch(ctx, []PackageRef{{KindGame, "a"}}, 0)),
		"nil context":           errs(c.Packages.Watch(nilContext, []PackageRef{{KindGame, "a"}}, time.Second)),
		"empty ident":           errs(c.Packages.Watch(ctx, []PackageRef{{KindGame, "a"}, {KindGame, ""}}, time.Second)),
		"dot segment":           errs(c.Packages.Watch(ctx, []PackageRef{{KindGame, ".."}}, time.Second)),
		"dashboard no interval": entryErrs(c.Dashboard.Watch(ctx, nil, -time.Second)),
		"dashboard nil context": entryErrs(c.Dashboard.Watch(nilContext, nil, time.Second)),
	} {
		require.Len(t, got, 1, name)
		assert.ErrorIs(t, got[0], ErrInvalidArgument, name)
	}
	for range c.Packages.Watch(ctx, nil, time.Second) {
		t.Error("an empty watch yields nothing")
	}
	assert.Empty(t, twin.Requests())
}

// A Client that NewClient did not make yields the same error from a
// watch as from any other call, and does not panic.
func TestWatchOfAZeroClient(t *testing.T) {
	var c Client
	ctx := context.Background()
	n := 0
	for _, err := range c.Dashboard.Watch(ctx, nil, time.Minute) {
		assert.ErrorIs(t, err, errZeroClient)
		n++
	}
	for _, err := range c.Packages.Watch(ctx, []PackageRef{{KindGame, "a"}}, time.Minute) {
		assert.ErrorIs(t, err, errZeroClient)
		n++
	}
	assert.Equal(t, 2, n)
}
