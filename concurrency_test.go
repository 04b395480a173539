package gamedata_test

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// concurrentJob is one piece of work for a goroutine sharing a client: it
// returns what it read, as JSON, and the ground truth.
type concurrentJob struct {
	name  string
	run   func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error)
	truth func(fx *matrixFixture) any
}

// concurrentJobs are every endpoint family of the fault matrix, and the
// two fan-outs.
func concurrentJobs() []concurrentJob {
	var jobs []concurrentJob
	for _, fam := range endpointFamilies {
		jobs = append(jobs, concurrentJob{name: fam.name, run: fam.call, truth: fam.truth})
	}
	return append(jobs,
		concurrentJob{
			name: "packages GetMany",
			run: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
				var refs []gamedata.PackageRef
				for _, e := range fx.cat.Packages {
					refs = append(refs, gamedata.PackageRef{Kind: e.Kind, Ident: e.Ident})
				}
				var got []*gamedata.Package
				for p, err := range c.Packages.GetMany(ctx, refs, 4) {
					if err != nil {
						return nil, err
					}
					got = append(got, p)
				}
				return entriesJSON(got), nil
			},
			truth: func(fx *matrixFixture) any {
				var want []any
				for _, e := range fx.cat.Packages {
					want = append(want, fx.cat.Package(e.Kind, e.Ident))
				}
				return want
			},
		},
		concurrentJob{
			name: "servers GetMany",
			run: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
				var ids []string
				for _, s := range fx.cat.Servers {
					ids = append(ids, s.ID)
				}
				var got []*gamedata.Server
				for s, err := range c.Servers.GetMany(ctx, ids, 3) {
					if err != nil {
						return nil, err
					}
					got = append(got, s)
				}
				return entriesJSON(got), nil
			},
			truth: func(fx *matrixFixture) any {
				var want []any
				for _, s := range fx.cat.Servers {
					want = append(want, fx.cat.Server(s.ID))
				}
				return want
			},
		},
	)
}

// runConcurrently runs the jobs on 32 goroutines sharing c, goroutine i
// taking jobs i, i+32, ... of rounds passes over jobs, and checks every
// result against the ground truth. Each goroutine also reads c.Stats.
func runConcurrently(t *testing.T, c *gamedata.Client, fx *matrixFixture, jobs []concurrentJob, rounds int) {
	t.Helper()
	const goroutines = 32
	type result struct {
		job string
		got []byte
		err error
	}
	results := make([][]result, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), gamedata.DeadlockGuard)
			defer cancel()
			for i := g; i < rounds*len(jobs); i += goroutines {
				job := jobs[i%len(jobs)]
				got, err := job.run(ctx, c, fx)
				results[g] = append(results[g], result{job.name, got, err})
				_ = c.Stats()
			}
		})
	}
	wg.Wait()

	truths := map[string]any{}
	for _, job := range jobs {
		truths[job.name] = asJSON(t, job.truth(fx))
	}
	n := 0
	for g, rs := range results {
		for _, r := range rs {
			n++
			if assert.NoError(t, r.err, "goroutine %d, %s", g, r.job) {
				assert.Equal(t, truths[r.job], asJSON(t, r.got), "goroutine %d, %s", g, r.job)
			}
		}
	}
	assert.Equal(t, rounds*len(jobs), n, "every job ran")
}

// TestOneClientManyGoroutines shares one client between 32 goroutines
// that use every endpoint at once, List, All, Get, GetMany, Search,
// History and the analytics, while the twin fails 10% of its answers:
// under -race this finds data races, and every result must be the ground
// truth. Slow: about 1 s under -race.
func TestOneClientManyGoroutines(t *testing.T) {
	t.Parallel()
	fx := newMatrixFixture(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 0.1, Kinds: retryableFaults, Seed: 3}))
	c := gamedata.NewTestClient(t, fx.twin.URL, gamedata.WithRetryMax(8))
	jobs := concurrentJobs()
	runConcurrently(t, c, fx, jobs, 4)

	stats := c.Stats()
	faults := 0
	for _, r := range fx.twin.Requests() {
		if r.Fault != 0 {
			faults++
		}
	}
	assert.Positive(t, faults, "faults were injected")
	t.Logf("%d jobs on 32 goroutines: %d requests sent, %d throttled; the twin injected %d faults in %d answers",
		4*len(jobs), stats.Requests, stats.Throttled, faults, len(fx.twin.Requests()))
}

// sendLog records when each request left the client: it is the transport
// under the client's limiter.
type sendLog struct {
	mu    sync.Mutex
	times []time.Time
}

func (l *sendLog) transport() http.RoundTripper {
	next := http.DefaultTransport.(*http.Transport).Clone()
	return transportFunc(func(r *http.Request) (*http.Response, error) {
		now := time.Now()
		l.mu.Lock()
		l.times = append(l.times, now)
		l.mu.Unlock()
		return next.RoundTrip(r)
	})
}

// maxPerWindow is the largest number of times in any window [t, t+d)
// that starts at one of them.
func maxPerWindow(times []time.Time, d time.Duration) int {
	times = slices.Clone(times)
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	best, j := 0, 0
	for i := range times {
		for j < len(times) && times[j].Sub(times[i]) < d {
			j++
		}
		best = max(best, j-i)
	}
	return best
}

func TestMaxPerWindow(t *testing.T) {
	t.Parallel()
	t0 := time.Now()
	at := func(ms ...int) []time.Time {
		var out []time.Time
		for _, m := range ms {
			out = append(out, t0.Add(time.Duration(m)*time.Millisecond))
		}
		return out
	}
	assert.Equal(t, 0, maxPerWindow(nil, time.Second))
	assert.Equal(t, 3, maxPerWindow(at(0, 0, 999, 1000), time.Second), "the window is half-open")
	assert.Equal(t, 4, maxPerWindow(at(1500, 0, 600, 1200, 1300), time.Second), "600 to 1500, unsorted")
}

// TestSharedLimiterHoldsTheRate runs the same 32 goroutines under a limit
// of 40 requests a second with a burst of 4, adaptive rate off: the
// requests really sent never exceed what the limiter allows over the run,
// burst + limit·t.
//
// The bound is taken over the whole run, from before the first request to
// after the last, so that no scheduling delay can make it fail: a delay
// only moves a send later, inside the span. A window check would count
// sends bunched up by a loaded machine, and a floor on the rate reached
// would fail on one: that the limiter is kept busy is measured by
// BenchmarkFanOut's limited case, as a share of the limit. Slow: about
// 2.5 s.
func TestSharedLimiterHoldsTheRate(t *testing.T) {
	t.Parallel()
	const limit, burst = 40, 4
	fx := newMatrixFixture(t)
	sends := &sendLog{}
	c, err := gamedata.NewClient(fx.twin.URL,
		gamedata.WithRateLimit(limit, burst),
		gamedata.WithAdaptiveRate(false),
		gamedata.WithHTTPClient(&http.Client{Transport: sends.transport()}))
	require.NoError(t, err)

	start := time.Now()
	runConcurrently(t, c, fx, concurrentJobs(), 2)
	elapsed := time.Since(start)

	sends.mu.Lock()
	times := slices.Clone(sends.times)
	sends.mu.Unlock()
	require.Greater(t, len(times), 2*limit, "enough requests to fill more than two seconds")
	allowed := burst + limit*elapsed.Seconds()
	assert.LessOrEqual(t, float64(len(times)), allowed, "no more than burst + limit·t over the run")
	assert.Equal(t, int64(len(times)), c.Stats().Requests, "every request was sent through the given transport")
	peak := maxPerWindow(times, time.Second)
	overall := float64(len(times)-burst) / elapsed.Seconds()
	t.Logf("%d requests in %v (%.1f/s after the burst); at most %d in any 1 s window, limit %d + burst %d",
		len(times), elapsed.Round(time.Millisecond), overall, peak, limit, burst)
}
