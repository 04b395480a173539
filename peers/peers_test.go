package peers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/peers/internal/oapi31"
	"github.com/gamedata-go/gamedata/peers/internal/ogen30"
	"github.com/gamedata-go/gamedata/peers/internal/ogen31"
	"golang.org/x/time/rate"
)

// A comparison is one shape of work (a 100,000-point activity history, a
// small record, a 20-page walk) done by every client against one twin.
// Its benchmark runs the floor, then each peer. The testing package runs
// each sub-benchmark -count times in a row, so a floor measured once
// before the peers would be minutes older than the last of them; instead
// each run of a peer measures the floor again right after its own loop,
// with the same number of calls, and reports its time and allocations
// above that floor. Its check, run once before timing and by
// TestPeersAgree, says every peer decoded the same data.

// peer is one client doing a comparison's work.
type peer[S comparable] struct {
	name string
	// run is the timed call; what it decoded is dropped.
	run func(context.Context) error
	// summary does the call once and summarizes what it decoded, for the
	// check.
	summary func(context.Context) (S, error)
}

// newPeer makes a peer of a call whose result sum summarizes.
func newPeer[T any, S comparable](name string, call func(context.Context) (T, error), sum func(T) (S, error)) peer[S] {
	return peer[S]{
		name: name,
		run: func(ctx context.Context) error {
			_, err := call(ctx)
			return err
		},
		summary: func(ctx context.Context) (S, error) {
			v, err := call(ctx)
			if err != nil {
				var zero S
				return zero, err
			}
			return sum(v)
		},
	}
}

// comparison is the floor and the peers of one shape, and what each peer
// must have decoded.
type comparison[S comparable] struct {
	// floor is net/http reading every body of the work and decoding none.
	floor func(context.Context) error
	peers []peer[S]
	want  S
}

// check does the floor's work once and each peer's call once, and fails
// unless every peer decoded want. Besides proving the comparison fair, it
// warms every peer's connection (and the SDK's cache) up before timing.
func (c comparison[S]) check(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	if err := c.floor(ctx); err != nil {
		t.Fatalf("floor: %v", err)
	}
	for _, p := range c.peers {
		got, err := p.summary(ctx)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if got != c.want {
			t.Errorf("%s decoded %+v,\nthe twin served %+v", p.name, got, c.want)
		}
	}
}

// bench runs the floor, then every peer, as sub-benchmarks of b.
func (c comparison[S]) bench(b *testing.B) {
	c.check(b)
	ctx := context.Background()
	floor := func() error { return c.floor(ctx) }
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := floor(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, p := range c.peers {
		b.Run(p.name, func(b *testing.B) {
			peer, n := measure(b, func() error { return p.run(ctx) })
			// b's timer stopped when its loop ended: the floor's calls
			// count in neither b's time nor its allocations.
			floor, err := measureN(n, floor)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(peer.ns-floor.ns, "ns-above-floor/op")
			b.ReportMetric(peer.allocs-floor.allocs, "allocs-above-floor/op")
		})
	}
}

// cost is what one call took: nanoseconds and heap allocations.
type cost struct{ ns, allocs float64 }

// measure runs op in b's loop, reporting allocations, and returns its
// cost per call, counted as the testing package counts it, and the number
// of calls.
func measure(b *testing.B, op func() error) (cost, int) {
	b.ReportAllocs()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	n := 0
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		n++
	}
	runtime.ReadMemStats(&ms)
	return cost{
		ns:     float64(b.Elapsed().Nanoseconds()) / float64(n),
		allocs: float64(ms.Mallocs-mallocs) / float64(n),
	}, n
}

// measureN runs op n times, outside any benchmark's timer, and returns its
// cost per call.
func measureN(n int, op func() error) (cost, error) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	mallocs := ms.Mallocs
	start := time.Now()
	for range n {
		if err := op(); err != nil {
			return cost{}, err
		}
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&ms)
	return cost{
		ns:     float64(elapsed.Nanoseconds()) / float64(n),
		allocs: float64(ms.Mallocs-mallocs) / float64(n),
	}, nil
}

// The twin the benchmarks measure: 2,000 packages (a walk of 20 pages of
// 100) and 100,000 activity points a range.
const (
	benchPackages = 2000
	benchPoints   = 100_000
)

// newTwin starts a twin of packages packages and points activity points a
// range, no servers or organizations, with its default caching (no-cache
// with validators) and no rate limit.
func newTwin(tb testing.TB, packages, points int) *gamedatatest.Server {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(packages, 0, 0), gamedatatest.WithHistoryPoints(points))
	tb.Cleanup(twin.Close)
	return twin
}

// httpClient is the HTTP client of a peer other than the SDK: a
// transport of its own, as http.DefaultTransport is configured.
func httpClient() *http.Client {
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// sdkClients are the SDK as a user gets it (its cache on, revalidating
// with the twin's validators) and with its cache off, both without a rate
// limit.
func sdkClients(tb testing.TB, base string) (withCache, noCache *gamedata.Client) {
	var err error
	if withCache, err = gamedata.NewClient(base, gamedata.WithRateLimit(rate.Inf, 0)); err != nil {
		tb.Fatal(err)
	}
	if noCache, err = gamedata.NewClient(base, gamedata.WithRateLimit(rate.Inf, 0), gamedata.WithCache(nil)); err != nil {
		tb.Fatal(err)
	}
	return withCache, noCache
}

// generatedClients are the clients ogen and oapi-codegen generated, each
// with a transport of its own (httpClient).
func generatedClients(tb testing.TB, base string) (*ogen31.Client, *ogen30.Client, *oapi31.ClientWithResponses) {
	o31, err := ogen31.NewClient(base, ogen31.WithClient(httpClient()))
	if err != nil {
		tb.Fatal(err)
	}
	o30, err := ogen30.NewClient(base, ogen30.WithClient(httpClient()))
	if err != nil {
		tb.Fatal(err)
	}
	oapi, err := oapi31.NewClientWithResponses(base, oapi31.WithHTTPClient(httpClient()))
	if err != nil {
		tb.Fatal(err)
	}
	return o31, o30, oapi
}

// drain is the floor: one GET whose body is read and dropped.
func drain(ctx context.Context, hc *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err == nil && (resp.StatusCode != http.StatusOK || n == 0) {
		err = fmt.Errorf("GET %s: %s, %d bytes", url, resp.Status, n)
	}
	return err
}

// errStatus says a generated client answered something other than the
// 200 asked for: its status line, or the type of its answer.
func errStatus(answer any) error {
	if status, ok := answer.(string); ok {
		return errors.New("answered " + status + ", not 200")
	}
	return fmt.Errorf("answered %T, not 200", answer)
}
