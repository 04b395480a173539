// Package adaptive learns the rate a service tolerates from its
// throttling and drives a client's rate limiter with it: down at each
// throttle, back up along a CUBIC curve in quiet periods, never above the
// ceiling the client was given.
package adaptive

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/internal/clock"
)

// The service does not publish its rate limits, so by default the client
// learns them from its throttling, as the AWS SDKs' "adaptive" retry mode
// does: each throttling response lowers the client's rate multiplicatively,
// and quiet periods raise it back along a CUBIC curve (the TCP congestion
// control of the same name) towards the configured ceiling. The decrease
// starts from the rate in force, but never from more than twice the rate
// the client really achieved: a client far below its limit is brought
// down to what it really sends. (Starting from the achieved rate itself,
// as AWS does, undershoots badly when the achieved rate was low because
// the client's own workers were waiting out Retry-After.) CUBIC climbs
// fast while far below the last rate that was throttled, slows as it nears
// it, then probes beyond it: the rate the service tolerates is found again
// quickly, and a higher one if the service's limit was raised.
const (
	cubicBeta    = 0.7 // the rate kept after a throttle
	cubicScale   = 0.4 // the cubic's steepness, in requests/s per s³
	minRate      = 0.5 // never slower than one request every 2 s
	rateBucket   = 500 * time.Millisecond
	rateSmoothed = 0.8 // weight of the newest bucket in the measured rate
)

// Rate drives a client's limiter from the responses it sees. Its methods
// take the time as an argument, so tests run it on a fake clock. It is
// safe for concurrent use.
type Rate struct {
	mu      sync.Mutex
	limiter *rate.Limiter
	ceiling rate.Limit
	adapt   bool
	logger  *slog.Logger

	// sentRate is the rate of requests really sent.
	sentRate meter

	lastMax      float64   // the rate at the last throttle
	lastThrottle time.Time // zero until the first throttle
	// epoch counts decreases. A request carries the epoch it started
	// waiting on the limiter in; a throttle of a request from an earlier
	// epoch is an echo of a rate already lowered (its slot was reserved,
	// or it was in flight, before the decrease) and lowers nothing.
	epoch  uint64
	logged float64 // the rate last logged

	requests, throttled int64
}

// New returns the Rate of limiter, whose limit is the ceiling. With adapt
// false it only counts; logger, when not nil, gets a debug line when the
// rate really changes.
func New(limiter *rate.Limiter, adapt bool, logger *slog.Logger) *Rate {
	a := &Rate{limiter: limiter, ceiling: limiter.Limit(), adapt: adapt, logger: logger}
	a.logged = float64(a.ceiling)
	if adapt && limiter.Burst() < 1 {
		// rate.Inf needs no burst, but a learned finite rate does.
		limiter.SetBurst(1)
	}
	return a
}

// meter measures a rate of events in buckets of rateBucket, smoothed.
type meter struct {
	rate  float64 // 0 until a bucket is complete
	start time.Time
	count int
}

func (m *meter) add(now time.Time) {
	if m.start.IsZero() {
		m.start = now
	}
	m.count++
	if elapsed := now.Sub(m.start); elapsed >= rateBucket {
		current := float64(m.count) / elapsed.Seconds()
		if m.rate == 0 {
			m.rate = current
		} else {
			m.rate = rateSmoothed*current + (1-rateSmoothed)*m.rate
		}
		m.start, m.count = now, 0
	}
}

// Epoch is the epoch a request starts in, before it waits on the limiter:
// Observe needs it.
func (a *Rate) Epoch() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.epoch
}

// Sent counts a request leaving at now.
func (a *Rate) Sent(now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests++
	a.sentRate.add(now)
}

// Observe adjusts the rate for a response received at now to a request
// that started waiting in epoch; throttled says the service was limiting
// the client (a 429, or a 503 with Retry-After).
func (a *Rate) Observe(now time.Time, epoch uint64, throttled bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if throttled {
		a.throttled++
	}
	if !a.adapt {
		return
	}
	current := float64(a.limiter.Limit())
	var next float64
	switch {
	case throttled:
		if epoch != a.epoch {
			return
		}
		base := current
		if m := a.sentRate.rate; m > 0 && 2*m < base {
			base = 2 * m
		}
		a.epoch++
		a.lastMax, a.lastThrottle = base, now
		next = base * cubicBeta
	case a.lastThrottle.IsZero():
		return // never throttled: the ceiling stands
	default:
		// The cubic is back at lastMax k seconds after the throttle.
		k := math.Cbrt(a.lastMax * (1 - cubicBeta) / cubicScale)
		t := now.Sub(a.lastThrottle).Seconds() - k
		next = cubicScale*t*t*t + a.lastMax
		if a.sentRate.rate > 0 {
			next = min(next, 2*a.sentRate.rate)
		}
		next = max(next, current) // a quiet period never lowers the rate
	}
	next = max(minRate, min(next, float64(a.ceiling)))
	a.limiter.SetLimitAt(now, rate.Limit(next))
	a.log(next, throttled)
}

func (a *Rate) log(next float64, throttled bool) {
	if a.logger == nil {
		return
	}
	if throttled || math.Abs(next-a.logged) >= 0.1*a.logged || (next == float64(a.ceiling) && a.logged != next) {
		a.logger.Debug("gamedata: client rate adjusted", "rate", next, "ceiling", float64(a.ceiling),
			"sent", a.sentRate.rate, "throttled", throttled, "throttledTotal", a.throttled)
		a.logged = next
	}
}

// Counts are what a Rate has seen and set.
type Counts struct {
	// Rate is the limit now in force; Ceiling the one it was given.
	Rate, Ceiling rate.Limit
	// Requests counts the requests sent; Throttled the throttling
	// responses.
	Requests, Throttled int64
}

// Counts returns the rate in force and the counts so far.
func (a *Rate) Counts() Counts {
	a.mu.Lock()
	defer a.mu.Unlock()
	return Counts{Rate: a.limiter.Limit(), Ceiling: a.ceiling, Requests: a.requests, Throttled: a.throttled}
}

// Wait waits, on clk, for the limiter's next slot, and returns how long
// it waited. A slot after ctx's deadline is ErrDeadline at once, rather
// than a wait that cannot end in time.
func (a *Rate) Wait(ctx context.Context, clk clock.Clock) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := clk.Now()
	r := a.limiter.ReserveN(now, 1)
	if !r.OK() {
		return 0, ErrDeadline
	}
	d := r.DelayFrom(now)
	if d <= 0 {
		return 0, nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		r.CancelAt(now)
		return 0, ErrDeadline
	}
	if err := clk.Sleep(ctx, d); err != nil {
		r.CancelAt(clk.Now())
		return 0, err
	}
	return d, nil
}

// ErrDeadline is context.DeadlineExceeded, met early: the limiter's next
// slot is after the context's deadline.
var ErrDeadline = fmt.Errorf("%w: the rate limit allows no request before the context deadline", context.DeadlineExceeded)
