package gamedata_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Walks that lose nothing: a 10,000-entry directory of 100 pages, walked
// under injected faults, compared with the twin's ground truth.

const (
	bigDirectory = 10_000
	bigPageSize  = 100
	bigPages     = bigDirectory / bigPageSize
)

// retryableFaults are all the twin's faults; every one of them is retried.
var retryableFaults = []gamedatatest.Fault{
	gamedatatest.Fault500, gamedatatest.Fault502, gamedatatest.Fault503,
	gamedatatest.Fault429, gamedatatest.FaultReset, gamedatatest.FaultTruncate,
	gamedatatest.FaultChunkedCut, gamedatatest.FaultGzipCut,
}

// entryIdentity is a dashboard entry's identity: kind and ident, or a
// server's id.
func entryIdentity(kind, ident, id string) string {
	if id != "" {
		return "server:" + id
	}
	return kind + "/" + ident
}

func catalogIdentities(entries []gamedatatest.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = entryIdentity(e.Kind, e.Ident, e.ID)
	}
	return out
}

// walked is what a walk yielded: identities, bodies as sent, and the error
// that ended it.
type walked struct {
	ids    []string
	bodies []json.RawMessage
	err    error
}

func walkDashboard(ctx context.Context, c *gamedata.Client, opts *gamedata.DashboardOptions, walk *gamedata.WalkOptions, onItem func(n int)) walked {
	var w walked
	for e, err := range c.Dashboard.All(ctx, opts, walk) {
		if err != nil {
			w.err = err
			break
		}
		w.ids = append(w.ids, entryIdentity(e.Kind, e.Ident, e.ID))
		w.bodies = append(w.bodies, e.JSON())
		if onItem != nil {
			onItem(len(w.ids))
		}
	}
	return w
}

// assertWholeDirectory checks that ids and bodies are the catalogue's
// entries, each exactly once, in order, and each as the catalogue has it.
func assertWholeDirectory(t *testing.T, want []gamedatatest.Entry, ids []string, bodies []json.RawMessage) {
	t.Helper()
	require.Len(t, ids, len(want), "every entry, exactly once")
	assert.Equal(t, catalogIdentities(want), ids, "in the catalogue's order")
	differ := 0
	for i, w := range want {
		// Bytes first; decoding both sides, the slow way, is for the
		// entries whose bytes differ.
		if bytes.Equal(w.JSON(), bodies[i]) {
			continue
		}
		if !assert.Equal(t, asJSON(t, w.JSON()), asJSON(t, bodies[i]), "entry %d as the catalogue has it", i) {
			if differ++; differ == 5 {
				t.FailNow()
			}
		}
	}
}

// faultCounts counts the twin's dashboard requests: answered without a
// fault, and with each fault.
func faultCounts(twin *gamedatatest.Server) (clean int, faults map[gamedatatest.Fault]int) {
	faults = map[gamedatatest.Fault]int{}
	for _, r := range twin.Requests() {
		if r.Path != "/api/dashboard" {
			continue
		}
		if r.Fault == 0 {
			clean++
		} else {
			faults[r.Fault]++
		}
	}
	return clean, faults
}

func newBigTwin(t *testing.T, opts ...gamedatatest.Option) *gamedatatest.Server {
	t.Helper()
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSize(bigDirectory, 0, 0)}, opts...)...)
	t.Cleanup(twin.Close)
	return twin
}

// TestWalkUnderFaultsLosesNothing walks 100 pages while the twin fails 20%
// of its answers with every retryable fault: the walk yields every entry
// exactly once, in order, and the twin served each page once. Slow: about
// 6 s under -race.
func TestWalkUnderFaultsLosesNothing(t *testing.T) {
	t.Parallel()
	twin := newBigTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 0.2, Kinds: retryableFaults, Seed: 3}))
	want := twin.Catalog().Packages
	require.Len(t, want, bigDirectory)
	// Eight retries: five faults in a row on one page, which would exhaust
	// the default four, is likely enough over 100 pages to make the test
	// depend on the seed.
	c := gamedata.NewTestClient(t, twin.URL, gamedata.WithRetryMax(8))

	var stats gamedata.WalkStats
	w := walkDashboard(context.Background(), c, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: bigPageSize}}, &gamedata.WalkOptions{Stats: &stats}, nil)
	require.NoError(t, w.err)
	assertWholeDirectory(t, want, w.ids, w.bodies)
	assert.Equal(t, gamedata.WalkStats{Pages: bigPages, Items: bigDirectory}, stats)

	clean, faults := faultCounts(twin)
	injected := 0
	for _, k := range retryableFaults {
		assert.Positive(t, faults[k], "fault %v was injected", k)
		injected += faults[k]
	}
	assert.Equal(t, bigPages, clean, "each page was served once")
	assert.InDelta(t, 0.2, float64(injected)/float64(injected+clean), 0.05, "about 20%% of answers failed")
	t.Logf("%d entries, %d pages; %d requests: %d faults injected (%v), %d retries by the client; %d duplicates dropped",
		len(w.ids), stats.Pages, clean+injected, injected, faults, c.Stats().Requests-int64(bigPages), stats.Duplicates)
}

// TestWalkResumesWhereRetriesRanOut walks with no retries under 20%
// faults: each fault ends the walk with a *PageError, and walking again
// from its Page, again and again, yields the whole directory with nothing
// lost and nothing repeated. Slow: about 4 s under -race.
func TestWalkResumesWhereRetriesRanOut(t *testing.T) {
	t.Parallel()
	twin := newBigTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 0.2, Kinds: retryableFaults, Seed: 11}))
	want := twin.Catalog().Packages
	c := gamedata.NewTestClient(t, twin.URL, gamedata.WithRetryMax(0))

	var ids []string
	var bodies []json.RawMessage
	page, restarts := 1, 0
	for ; restarts <= 10*bigPages; restarts++ {
		w := walkDashboard(context.Background(), c, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{Page: page, PageSize: bigPageSize}}, nil, nil)
		ids, bodies = append(ids, w.ids...), append(bodies, w.bodies...)
		if w.err == nil {
			break
		}
		var pe *gamedata.PageError
		require.ErrorAs(t, w.err, &pe)
		require.GreaterOrEqual(t, pe.Page, page, "a walk never goes back")
		require.Len(t, ids, (pe.Page-1)*bigPageSize, "the walk yielded every page before the one that failed, and nothing of it")
		page = pe.Page
	}
	assert.Positive(t, restarts, "faults ended some walks")
	assertWholeDirectory(t, want, ids, bodies)
	clean, faults := faultCounts(twin)
	assert.Equal(t, bigPages, clean, "each page was served once")
	t.Logf("%d entries after %d restarts; faults %v", len(ids), restarts, faults)
}

// TestWalkResumesAfterAnOutage walks with a few retries; after 30 pages
// the twin fails every answer, so retries run out: the walk ends with a
// *PageError, and, the outage over, a walk from its Page completes the
// directory. Slow: about 4 s under -race.
func TestWalkResumesAfterAnOutage(t *testing.T) {
	t.Parallel()
	twin := newBigTwin(t)
	want := twin.Catalog().Packages
	c := gamedata.NewTestClient(t, twin.URL, gamedata.WithRetryMax(2))
	opts := &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: bigPageSize}}

	first := walkDashboard(context.Background(), c, opts, nil, func(n int) {
		if n == 30*bigPageSize {
			twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: retryableFaults})
		}
	})
	var pe *gamedata.PageError
	require.ErrorAs(t, first.err, &pe)
	// The page after the 30th may have been prefetched before the outage.
	assert.Contains(t, []int{31, 32}, pe.Page)
	require.Len(t, first.ids, (pe.Page-1)*bigPageSize)

	twin.SetFaults(gamedatatest.Faults{})
	opts.Page = pe.Page
	rest := walkDashboard(context.Background(), c, opts, nil, nil)
	require.NoError(t, rest.err)
	assertWholeDirectory(t, want, append(first.ids, rest.ids...), append(first.bodies, rest.bodies...))
	t.Logf("outage at page %d: %v", pe.Page, pe)
}

// pageLog records the identities of every dashboard page the client
// received, as sent, before the client decoded them.
type pageLog struct {
	mu  sync.Mutex
	ids []string
}

func (l *pageLog) add(body []byte) error {
	var page struct {
		Items []struct{ Kind, Ident, ID string }
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, it := range page.Items {
		l.ids = append(l.ids, entryIdentity(it.Kind, it.Ident, it.ID))
	}
	return nil
}

// bodyTap returns a transport, over a transport of its own, that hands the
// body of every 200 response for /api/dashboard to tap before the client
// reads it.
func bodyTap(tap func(body []byte) error) http.RoundTripper {
	next := http.DefaultTransport.(*http.Transport).Clone()
	return transportFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err != nil || resp.StatusCode != http.StatusOK || r.URL.Path != "/api/dashboard" {
			return resp, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		if err := tap(body); err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		return resp, nil
	})
}

// TestShiftingDirectory walks a directory sorted by live player counts
// while the twin moves entries between pages: the walk yields each
// identity at most once, and counts in WalkStats.Duplicates exactly the
// items it dropped. Sorted by ident, the default, the same shifting
// directory is walked exactly. Slow: about 2 s under -race.
func TestShiftingDirectory(t *testing.T) {
	t.Parallel()
	const size, pageSize = 1000, 50
	tests := []struct {
		sort string
		// exact: the walk yields the catalogue, in order.
		exact bool
	}{
		{sort: "players", exact: false},
		{sort: "", exact: true},
		{sort: "ident", exact: true},
	}
	// The cases run at once in this test's goroutines rather than as
	// parallel subtests, which would queue behind the package's other
	// parallel tests.
	var wg sync.WaitGroup
	for _, tt := range tests {
		wg.Go(func() {
			t.Run("sort="+tt.sort, func(t *testing.T) {
				twin := gamedatatest.NewServer(gamedatatest.WithSize(size, 0, 0))
				t.Cleanup(twin.Close)
				twin.ReorderEvery(1)
				log := &pageLog{}
				c := gamedata.NewTestClient(t, twin.URL, gamedata.WithHTTPClient(&http.Client{Transport: bodyTap(log.add)}))

				var stats gamedata.WalkStats
				w := walkDashboard(context.Background(), c, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{Sort: tt.sort, PageSize: pageSize}}, &gamedata.WalkOptions{Stats: &stats}, nil)
				require.NoError(t, w.err)

				catalogue := catalogIdentities(twin.Catalog().Packages)
				received := log.ids
				distinct := map[string]bool{}
				for _, id := range received {
					distinct[id] = true
				}
				yielded := map[string]bool{}
				for _, id := range w.ids {
					assert.False(t, yielded[id], "%s yielded twice", id)
					yielded[id] = true
				}
				assert.Equal(t, distinct, yielded, "the walk yields every identity it received, once")
				assert.Equal(t, len(received)-len(w.ids), stats.Duplicates, "Duplicates counts the items dropped")
				assert.Equal(t, len(w.ids), stats.Items)
				assert.Subset(t, catalogue, w.ids, "every identity yielded is in the catalogue")

				if tt.exact {
					assert.Equal(t, catalogue, w.ids, "a stable sort is walked exactly")
					assert.Zero(t, stats.Duplicates)
				} else {
					assert.Positive(t, stats.Duplicates, "the shift moved entries across pages")
				}
				t.Logf("sort %q: %d pages, %d items received, %d yielded, %d duplicates dropped, %d of %d catalogue entries never seen",
					tt.sort, stats.Pages, len(received), len(w.ids), stats.Duplicates, len(catalogue)-len(w.ids), len(catalogue))
			})
		})
	}
	wg.Wait()
}
