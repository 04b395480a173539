package gamedata

import (
	"context"
	"fmt"
	"hash/crc32"
	"iter"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// catalogue is a test service of package records, each with an ETag
// derived from its body and max-age=60, which answers a matching
// If-None-Match with 304. before, when set, runs before the n-th request
// (from 0) is served, so a test can change the catalogue between rounds.
type catalogue struct {
	mu       sync.Mutex
	records  map[string]string // ident to body; absent answers 404
	before   func(n int)
	requests atomic.Int64
	bytes    atomic.Int64
	// stuckETag, when set, is sent for every record and always matches.
	stuckETag string
	// limit, when set, is the number of requests served; the next one
	// calls stop and fails.
	limit int
	stop  func()
}

func newCatalogue(n int) (*catalogue, []PackageRef) {
	c := &catalogue{records: map[string]string{}}
	refs := make([]PackageRef, n)
	for i := range n {
		ident := fmt.Sprintf("p%03d", i)
		c.records[ident] = fmt.Sprintf(`{"kind":"game","ident":%q,"title":"Package %d, a title long enough to weigh like a real record","players":%d,"tags":["a","b","c"]}`, ident, i, 100*i)
		refs[i] = PackageRef{Kind: KindGame, Ident: ident}
	}
	return c, refs
}

func (c *catalogue) set(ident, body string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if body == "" {
		delete(c.records, ident)
		return
	}
	c.records[ident] = body
}

func (c *catalogue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(c.requests.Add(1)) - 1
	if c.limit > 0 && n >= c.limit {
		c.stop()
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	if c.before != nil {
		c.before(n)
	}
	ident := strings.TrimPrefix(r.URL.Path, "/api/packages/game/")
	c.mu.Lock()
	body, ok := c.records[ident]
	stuck := c.stuckETag
	c.mu.Unlock()
	if !ok {
		http.Error(w, `{"error":"not found"}`, http.StatusNotFound)
		return
	}
	etag := fmt.Sprintf(`"%08x"`, crc32.ChecksumIEEE([]byte(body)))
	if stuck != "" {
		etag = stuck
	}
	w.Header().Set("Etag", etag)
	w.Header().Set("Cache-Control", "max-age=60")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	k, _ := w.Write([]byte(body))
	c.bytes.Add(int64(k))
}

// watchRounds runs a watch on a fake clock until the service has served
// rounds*len(refs) requests, and returns what it yielded.
func watchRounds(t *testing.T, c *Client, cat *catalogue, refs []PackageRef, rounds int) (changes []Change[*Package], errs []error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cat.limit, cat.stop = rounds*len(refs), cancel
	for ch, err := range c.Packages.Watch(ctx, refs, time.Minute) {
		if err != nil {
			errs = append(errs, err)
		} else {
			changes = append(changes, ch)
		}
	}
	return changes, errs
}

func TestPackagesWatchCostsLittleWhenNothingChanges(t *testing.T) {
	cat, refs := newCatalogue(100)
	srv, _ := newServer(t, cat.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	var plain int64
	for _, r := range refs {
		plain += int64(len(cat.records[r.Ident]))
	}
	plain *= 10

	cat.before = func(n int) {
		if n == 999 {
			cat.set("p099", "")
		}
	}
	changes, errs := watchRounds(t, c, cat, refs, 10)
	require.Empty(t, errs)
	require.Len(t, changes, 101)
	for i, ch := range changes[:100] {
		assert.Equal(t, Added, ch.Op)
		assert.Equal(t, refs[i].Ident, ch.New.Ident)
	}
	assert.Equal(t, Removed, changes[100].Op)
	assert.Equal(t, int64(1000+1), cat.requests.Load(), "the last one is refused")
	t.Logf("10 rounds of 100 records: %d body bytes against %d for plain polling (%.1f%%)", cat.bytes.Load(), plain, 100*float64(cat.bytes.Load())/float64(plain))
	assert.Less(t, float64(cat.bytes.Load()), 0.15*float64(plain), "%d bytes against %d for plain polling", cat.bytes.Load(), plain)
	assert.Equal(t, int64(900-1), c.Stats().CacheRevalidations)
}

func TestPackagesWatchReportsEachChangeOnce(t *testing.T) {
	cat, refs := newCatalogue(10)
	srv, _ := newServer(t, cat.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	changed := `{"kind":"game","ident":"p003","title":"Renamed","players":1}`
	cat.before = func(n int) {
		switch n {
		case 20: // round 3: p003 changes, p005 goes
			cat.set("p003", changed)
			cat.set("p005", "")
		case 50: // round 6: p005 comes back
			cat.set("p005", `{"kind":"game","ident":"p005"}`)
		}
	}
	changes, errs := watchRounds(t, c, cat, refs, 8)
	require.Empty(t, errs)
	require.Len(t, changes, 13)
	later := changes[10:]
	assert.Equal(t, Updated, later[0].Op)
	assert.Equal(t, "p003", later[0].Old.Ident)
	assert.Equal(t, changed, string(later[0].New.JSON()))
	assert.NotEqual(t, changed, string(later[0].Old.JSON()))
	assert.Equal(t, Change[*Package]{Op: Removed, Old: changes[5].New}, later[1])
	assert.Equal(t, Added, later[2].Op)
	assert.Equal(t, "p005", later[2].New.Ident)
	assert.Nil(t, later[2].Old)
}

// A service that answers 304 to a stale ETag forever is caught by the
// full re-read.
func TestPackagesWatchRereadsAStuckValidator(t *testing.T) {
	cat, refs := newCatalogue(1)
	cat.stuckETag = `"forever"`
	srv, log := newServer(t, cat.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	cat.before = func(n int) {
		if n == 2 {
			cat.set("p000", `{"kind":"game","ident":"p000","players":7}`)
		}
	}
	got, errs := watchRounds(t, c, cat, refs, watchFullEvery+2)
	require.Empty(t, errs)
	require.Len(t, got, 2)
	assert.Equal(t, Updated, got[1].Op)
	reqs := log.all()
	reqs = reqs[:len(reqs)-1] // the one refused
	full := 0
	for _, r := range reqs {
		if r.Header.Get("If-None-Match") == "" {
			full++
		}
	}
	assert.Equal(t, 2, full, "the first read and one full re-read, the last poll")
}

func TestPackagesWatchGoesOnAfterAFailedPoll(t *testing.T) {
	var calls atomic.Int32
	cat, refs := newCatalogue(2)
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 2 {
			http.Error(w, `{"error":"bad"}`, http.StatusBadRequest)
			return
		}
		cat.ServeHTTP(w, r)
	})
	c := cachingClient(t, srv.URL, newFakeClock())
	var ops []string
	for ch, err := range c.Packages.Watch(context.Background(), refs, time.Minute) {
		if err != nil {
			var ie *ItemError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, 1, ie.Index)
			ops = append(ops, "error")
			continue
		}
		if ops = append(ops, ch.Op.String()+" "+ch.New.Ident); len(ops) == 3 {
			break
		}
	}
	assert.Equal(t, []string{"added p000", "error", "added p001"}, ops)
}

func TestPackagesWatchEndsWithItsContext(t *testing.T) {
	cat, refs := newCatalogue(3)
	srv, _ := newServer(t, cat.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	ctx, cancel := context.WithCancel(context.Background())
	cat.before = func(n int) {
		if n == 4 {
			cancel()
		}
	}
	n := 0
	for _, err := range c.Packages.Watch(ctx, refs, time.Minute) {
		require.NoError(t, err, "the end of the context is not an error")
		n++
	}
	assert.Equal(t, 3, n)
}

// One 429 asking for a wait of 31 years delays a watch by four intervals,
// says so, and does not make it miss the change that follows; so for the
// dashboard's watch.
func TestWatchOutlivesAHugeRetryAfter(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(3, 0, 1))
	defer twin.Close()
	entries := twin.Catalog().Entries(nil)
	refs := make([]PackageRef, len(entries))
	for i, e := range entries {
		refs[i] = PackageRef{Kind: e.Kind, Ident: e.Ident}
	}
	players := 4242.0
	for _, tc := range []struct {
		name  string
		path  string
		watch func(context.Context, *Client) iter.Seq2[string, error]
	}{
		{"packages", "/api/packages/", func(ctx context.Context, c *Client) iter.Seq2[string, error] {
			return func(yield func(string, error) bool) {
				for ch, err := range c.Packages.Watch(ctx, refs, time.Minute) {
					var ie *ItemError
					if err != nil && !assert.ErrorAs(t, err, &ie) || !yield(changeOf(ch.Op, ch.New, ch.Old), err) {
						return
					}
				}
			}
		}},
		{"dashboard", "/api/dashboard", func(ctx context.Context, c *Client) iter.Seq2[string, error] {
			return func(yield func(string, error) bool) {
				for ch, err := range c.Dashboard.Watch(ctx, nil, time.Minute) {
					var pe *PageError
					if err != nil && !assert.ErrorAs(t, err, &pe) || !yield(ch.Op.String()+" "+ch.New.Ident, err) {
						return
					}
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var matched atomic.Int32
			twin.SetFaults(gamedatatest.Faults{
				Rate:       1,
				Kinds:      []gamedatatest.Fault{gamedatatest.Fault429},
				RetryAfter: 999999999 * time.Second,
				Match: func(r *http.Request) bool {
					return strings.HasPrefix(r.URL.Path, tc.path) && matched.Add(1) == 2
				},
			})
			clk := newFakeClock()
			c := cachingClient(t, twin.URL, clk)
			var log []string
			var delay *WatchDelayError
			for ch, err := range tc.watch(context.Background(), c) {
				if err != nil {
					require.ErrorAs(t, err, &delay)
					log = append(log, "error")
					players++
					require.NoError(t, twin.UpdatePackage(refs[0].Kind, refs[0].Ident, gamedatatest.PackageUpdate{Players: &players}))
					continue
				}
				if log = append(log, ch); strings.HasPrefix(ch, "updated") {
					break
				}
			}
			require.NotNil(t, delay, "the delayed poll is said")
			assert.Equal(t, maxRetryAfter, delay.RetryAfter, "as much as the client reads of it")
			assert.Equal(t, 4*time.Minute, delay.Wait)
			assert.Contains(t, delay.Error(), "the service asked to wait 8760h0m0s, longer than a watch waits; the next poll is in 4m0s: ")
			assert.Equal(t, 4*time.Minute, slices.Max(clk.slept), "no wait longer than the bound")
			assert.Equal(t, "updated "+refs[0].Ident, log[len(log)-1], "the change after the delay is reported")
		})
	}
}

func changeOf(op Op, new, old *Package) string {
	switch {
	case op == 0:
		return ""
	case new != nil:
		return op.String() + " " + new.Ident
	}
	return op.String() + " " + old.Ident
}
