package gamedata

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/pace"
)

func TestOpString(t *testing.T) {
	assert.Equal(t, "added", Added.String())
	assert.Equal(t, "updated", Updated.String())
	assert.Equal(t, "removed", Removed.String())
	assert.Equal(t, "Op(0)", Op(0).String())
}

func TestPacerHonoursRetryAfter(t *testing.T) {
	clk := newFakeClock()
	p := pace.New(clk, time.Second, 1, 0)
	require.NoError(t, p.Wait(context.Background()))
	apiErr := &APIError{StatusCode: 429, RetryAfter: 3 * time.Second}
	err := failed(p, &ItemError{Index: 2, Err: apiErr})
	want := &ItemError{Index: 2, Err: &WatchDelayError{RetryAfter: 3 * time.Second, Wait: 3 * time.Second, Err: apiErr}}
	assert.Equal(t, want, err, "the delay is said inside the error that locates the poll")
	require.NoError(t, p.Wait(context.Background()))
	other := errors.New("network")
	assert.Equal(t, other, failed(p, other), "an error without Retry-After is said as it is")
	require.NoError(t, p.Wait(context.Background()))
	assert.Equal(t, []time.Duration{3 * time.Second, time.Second}, clk.Slept())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, p.Wait(ctx), context.Canceled)

	page := failed(p, &PageError{Page: 3, Err: apiErr})
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
			p := pace.New(clk, tc.every, tc.polls, 0)
			require.NoError(t, p.Wait(context.Background()))
			err := failed(p, &APIError{StatusCode: 429, RetryAfter: year})
			var delay *WatchDelayError
			require.ErrorAs(t, err, &delay)
			assert.Equal(t, year, delay.RetryAfter)
			assert.Equal(t, tc.want, delay.Wait)
			assert.Contains(t, err.Error(), "the service asked to wait 8760h0m0s, longer than a watch waits; the next poll is in "+tc.want.String()+": ")
			require.NoError(t, p.Wait(context.Background()))
			assert.Equal(t, []time.Duration{tc.want}, clk.Slept(), "the interval itself, or the bound")
		})
	}
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
