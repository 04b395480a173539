package gamedata_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func packageRefs(t *testing.T, twin *gamedatatest.Server) []gamedata.PackageRef {
	t.Helper()
	var refs []gamedata.PackageRef
	for _, e := range twin.Catalog().Directory("") {
		refs = append(refs, gamedata.PackageRef{Kind: e["kind"].(string), Ident: e["ident"].(string)})
	}
	return refs
}

// TestAdaptiveRateAgainstTheTwin runs a 500-request job with a ceiling of
// 100/s against a twin that allows 30/s: the client must learn the limit,
// be throttled rarely, and finish close to the ideal 500/30 s.
//
// It measures wall-clock throughput, so it does not run in parallel with
// the package's other tests, which would take the CPU it is timed on.
func TestAdaptiveRateAgainstTheTwin(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(500, 0, 0), gamedatatest.WithRateLimit(30, 5))
	defer twin.Close()
	refs := packageRefs(t, twin)
	require.Len(t, refs, 500)
	client, err := gamedata.NewClient(twin.URL, gamedata.WithRateLimit(100, 1))
	require.NoError(t, err)

	start := time.Now()
	for _, err := range client.Packages.GetMany(context.Background(), refs, 8) {
		require.NoError(t, err)
	}
	elapsed := time.Since(start)
	stats := client.Stats()
	share := float64(stats.Throttled) / float64(stats.Requests)
	ideal := 500 / 30.0
	t.Logf("%d requests, %d throttled (%.1f%%), %.1fs (%.2fx the ideal %.1fs), rate now %.1f/s",
		stats.Requests, stats.Throttled, 100*share, elapsed.Seconds(), elapsed.Seconds()/ideal, ideal, float64(stats.Rate))
	assert.LessOrEqual(t, share, 0.05)
	assert.LessOrEqual(t, elapsed.Seconds(), 1.15*ideal)
}

// TestAdaptiveRateClimbsWhenTheLimitRises raises the twin's limit from
// 30/s to 60/s under load: within 10 s the client must achieve at least
// 80% of the new limit.
// Like the test above, it does not run in parallel.
func TestAdaptiveRateClimbsWhenTheLimitRises(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(100, 0, 0), gamedatatest.WithRateLimit(30, 5))
	defer twin.Close()
	refs := packageRefs(t, twin)
	client, err := gamedata.NewClient(twin.URL, gamedata.WithRateLimit(100, 1))
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var done []time.Time
	var n atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for ctx.Err() == nil {
				r := refs[int(n.Add(1))%len(refs)]
				if _, err := client.Packages.Get(ctx, r.Kind, r.Ident); err == nil {
					mu.Lock()
					done = append(done, time.Now())
					mu.Unlock()
				}
			}
		})
	}
	defer wg.Wait()
	defer cancel()

	time.Sleep(5 * time.Second) // learn 30/s
	raised := time.Now()
	twin.SetRateLimit(60, 5)
	achieved := func(end time.Time) int {
		mu.Lock()
		defer mu.Unlock()
		count := 0
		for _, d := range done {
			if d.After(end.Add(-time.Second)) && !d.After(end) {
				count++
			}
		}
		return count
	}
	reached := time.Duration(0)
	for time.Since(raised) < 10*time.Second {
		time.Sleep(250 * time.Millisecond)
		if achieved(time.Now()) >= 48 {
			reached = time.Since(raised)
			break
		}
	}
	t.Logf("reached %d/s %.1fs after the raise; client rate %.1f/s", achieved(time.Now()), reached.Seconds(), float64(client.Stats().Rate))
	assert.NotZero(t, reached, "the client did not reach 48/s within 10 s of the raise")
}
