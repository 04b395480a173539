package adaptive

import (
	"bytes"
	"log/slog"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// stepClock is a fake clock for the rate controller, moved by hand: the
// simulations below step it millions of times, without a lock.
type stepClock struct{ now time.Time }

func (c *stepClock) advance(d time.Duration) time.Time {
	c.now = c.now.Add(d)
	return c.now
}

func newController(ceiling rate.Limit, adapt bool) (*Rate, *stepClock) {
	clk := &stepClock{now: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	return New(rate.NewLimiter(ceiling, 1), adapt, nil), clk
}

// send sends n requests evenly over d and returns the epoch they started
// in.
func send(a *Rate, clk *stepClock, n int, d time.Duration) uint64 {
	epoch := a.Epoch()
	for range n {
		a.Sent(clk.advance(d / time.Duration(n)))
	}
	return epoch
}

// round sends n requests evenly over d and, wait later, observes one of
// them answered, throttled or not.
func round(a *Rate, clk *stepClock, n int, d, wait time.Duration, throttled bool) {
	epoch := send(a, clk, n, d)
	a.Observe(clk.advance(wait), epoch, throttled)
}

func TestAdaptiveRateStaysAtTheCeilingUntilThrottled(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, true)
	for range 10 {
		round(a, clk, 50, time.Second, time.Millisecond, false)
	}
	assert.Equal(t, rate.Limit(100), a.Counts().Rate)
	assert.Equal(t, int64(500), a.Counts().Requests)
}

func TestAdaptiveRateDecreasesFromTheAchievedRate(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, true)
	epoch := send(a, clk, 40, 2*time.Second) // 20 requests/s really sent
	a.Observe(clk.advance(time.Millisecond), epoch, true)
	assert.InDelta(t, 2*20*cubicBeta, float64(a.Counts().Rate), 1, "from twice the 20/s achieved, not from the ceiling of 100/s")
	assert.Equal(t, int64(1), a.Counts().Throttled)
	lowered := a.Counts().Rate

	// Throttles of requests that started before that decrease are echoes
	// of the old rate: counted, but they lower nothing.
	a.Observe(clk.advance(time.Millisecond), epoch, true)
	a.Observe(clk.advance(time.Millisecond), epoch, true)
	assert.Equal(t, lowered, a.Counts().Rate)
	assert.Equal(t, int64(3), a.Counts().Throttled)

	// A request of the new epoch lowers it again.
	later := send(a, clk, 14, time.Second)
	a.Observe(clk.advance(time.Millisecond), later, true)
	assert.InDelta(t, float64(lowered)*cubicBeta, float64(a.Counts().Rate), 0.5)
}

func TestAdaptiveRateWithoutAMeasureDecreasesFromTheRateInForce(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, true)
	round(a, clk, 3, 30*time.Millisecond, 0, true) // too soon for a measure
	assert.InDelta(t, 100*cubicBeta, float64(a.Counts().Rate), 0.01)
}

func TestAdaptiveRateClimbsBackAlongTheCubic(t *testing.T) {
	t.Parallel()
	a, clk := newController(30, true)
	round(a, clk, 60, 2*time.Second, 0, true) // 30/s, the ceiling
	a.ceiling = 100                           // let it climb past the old ceiling
	require.InDelta(t, 21, float64(a.Counts().Rate), 0.5)
	assert.InDelta(t, 30, a.lastMax, 0.5)

	var rates []float64
	for range 12 {
		// The client sends at whatever rate it is allowed.
		round(a, clk, int(a.Counts().Rate), time.Second, 0, false)
		rates = append(rates, float64(a.Counts().Rate))
	}
	for i := 1; i < len(rates); i++ {
		assert.GreaterOrEqual(t, rates[i], rates[i-1], "quiet periods never lower the rate")
	}
	assert.Less(t, rates[0], 30.0, "within K of the throttle the rate stays below the throttled one")
	assert.Greater(t, rates[5], 30.0, "after K it probes beyond it")
	assert.Equal(t, 100.0, rates[len(rates)-1], "back at the ceiling, and no higher")
	// It gets back to the throttled rate about K after the throttle: not
	// within 2 s, but by 4 s.
	assert.Less(t, rates[1], a.lastMax)
	assert.GreaterOrEqual(t, rates[3], a.lastMax)
}

func TestAdaptiveRateIsCappedByTwiceTheAchievedRate(t *testing.T) {
	t.Parallel()
	a, clk := newController(1000, true)
	round(a, clk, 20, 2*time.Second, 0, true) // 10/s
	// Long quiet: the cubic would allow far more, but the client has only
	// shown it sends 10/s.
	clk.advance(time.Minute)
	round(a, clk, 50, 5*time.Second, 0, false)
	assert.InDelta(t, 20, float64(a.Counts().Rate), 1)
}

func TestAdaptiveRateFloor(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, true)
	for range 40 {
		round(a, clk, 2, time.Second, time.Millisecond, true)
	}
	assert.Equal(t, rate.Limit(minRate), a.Counts().Rate)
}

func TestAdaptiveRateOff(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, false)
	round(a, clk, 60, 2*time.Second, 0, true)
	assert.Equal(t, Counts{Rate: 100, Ceiling: 100, Requests: 60, Throttled: 1}, a.Counts())
}

// TestAdaptiveRateAgainstASimulatedService runs the controller on the fake
// clock against a service that allows 30 requests/s (a token bucket with a
// burst of 5), with a client allowed 100/s that always has a request
// ready, as many workers would.
func TestAdaptiveRateAgainstASimulatedService(t *testing.T) {
	t.Parallel()
	for _, adapt := range []bool{true, false} {
		a, clk := newController(100, adapt)
		start := clk.now
		service := rate.NewLimiter(30, 5)
		service.SetLimitAt(start, 30)
		done, attempts, throttled := 0, 0, 0
		for done < 500 {
			epoch := a.Epoch()
			r := a.limiter.ReserveN(clk.now, 1)
			now := clk.advance(r.DelayFrom(clk.now))
			attempts++
			a.Sent(now)
			ok := service.AllowN(now, 1)
			a.Observe(now.Add(5*time.Millisecond), epoch, !ok)
			if ok {
				done++
			} else {
				throttled++
			}
		}
		elapsed := clk.now.Sub(start)
		ideal := 500 / 30.0
		t.Logf("adaptive=%v: %d attempts, %d throttled (%.1f%%), %.1fs for 500 (%.2fx ideal)",
			adapt, attempts, throttled, 100*float64(throttled)/float64(attempts), elapsed.Seconds(), elapsed.Seconds()/ideal)
		if adapt {
			assert.LessOrEqual(t, float64(throttled)/float64(attempts), 0.05)
			assert.LessOrEqual(t, elapsed.Seconds(), 1.15*ideal)
		} else {
			assert.Greater(t, float64(throttled)/float64(attempts), 0.5, "a fixed 100/s against 30/s is mostly refused")
		}
	}
}

// TestAdaptiveRateClimbsWhenTheLimitRises raises the simulated service's
// limit from 30/s to 60/s after 5 s under load, on the fake clock: within
// 10 s of the raise the client must achieve at least 80% of the new limit
// over a second.
func TestAdaptiveRateClimbsWhenTheLimitRises(t *testing.T) {
	t.Parallel()
	a, clk := newController(100, true)
	start := clk.now
	service := rate.NewLimiter(30, 5)
	service.SetLimitAt(start, 30)
	raised := start.Add(5 * time.Second)
	var done []time.Time
	reached := time.Duration(0)
	for clk.now.Before(raised.Add(10*time.Second)) && reached == 0 {
		if clk.now.After(raised) && service.Limit() == 30 {
			service.SetLimitAt(clk.now, 60)
		}
		epoch := a.Epoch()
		r := a.limiter.ReserveN(clk.now, 1)
		now := clk.advance(r.DelayFrom(clk.now))
		a.Sent(now)
		ok := service.AllowN(now, 1)
		a.Observe(now.Add(5*time.Millisecond), epoch, !ok)
		if !ok {
			continue
		}
		done = append(done, now)
		recent := len(done) - sort.Search(len(done), func(i int) bool { return done[i].After(now.Add(-time.Second)) })
		if now.After(raised) && recent >= 48 {
			reached = now.Sub(raised)
		}
	}
	t.Logf("reached 48/s %.1fs after the raise; client rate %.1f/s", reached.Seconds(), float64(a.Counts().Rate))
	assert.NotZero(t, reached, "the client did not reach 48/s within 10 s of the raise")
}

func TestAdaptiveRateLogsAtDebug(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	clk := &stepClock{now: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)}
	a := New(rate.NewLimiter(100, 1), true, logger)
	round(a, clk, 60, 2*time.Second, 0, true)
	assert.Contains(t, buf.String(), "level=DEBUG")
	assert.Contains(t, buf.String(), "client rate adjusted")
	assert.Contains(t, buf.String(), "throttled=true")

	// Small moves are not logged: the log says when the rate really
	// changed, not at every response.
	buf.Reset()
	a.Observe(clk.advance(time.Millisecond), a.Epoch(), false)
	assert.Empty(t, buf.String())
}
