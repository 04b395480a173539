package gamedata

import (
	"bytes"
	"context"
	"iter"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/attempt"
	"github.com/gamedata-go/gamedata/internal/pace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchTwin starts a twin of n packages whose records are served with an
// ETag and max-age=60: a watch polls conditionally whatever the cached
// record's freshness. It returns the twin and a ref of each package, in
// the catalogue's order.
func watchTwin(t *testing.T, n int) (*gamedatatest.Server, []PackageRef) {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(n, 0, 1),
		gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=60"}))
	t.Cleanup(twin.Close)
	refs := make([]PackageRef, 0, n)
	for _, e := range twin.Catalog().Packages {
		refs = append(refs, PackageRef{Kind: e.Kind, Ident: e.Ident})
	}
	require.Len(t, refs, n)
	return twin, refs
}

// watchRounds runs a watch of refs on a fake clock until twin has served
// rounds*len(refs) requests, and returns what it yielded. before, when
// not nil, runs as the n-th request (from 0) arrives, before it is
// answered, so a test can change the twin between polls; the request
// after the last round ends the watch and is refused (503).
func watchRounds(t *testing.T, c *Client, twin *gamedatatest.Server, refs []PackageRef, rounds int, before func(n int)) (changes []Change[*Package], errs []error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var requests atomic.Int64
	twin.SetFaults(gamedatatest.Faults{
		Rate:  1,
		Kinds: []gamedatatest.Fault{gamedatatest.Fault503},
		Match: func(*http.Request) bool {
			n := int(requests.Add(1)) - 1
			if n >= rounds*len(refs) {
				cancel()
				return true
			}
			if before != nil {
				before(n)
			}
			return false
		},
	})
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
	twin, refs := watchTwin(t, 100)
	c := cachingClient(t, twin.URL, newFakeClock())
	cat := twin.Catalog()
	var plain int64
	for _, r := range refs {
		plain += int64(len(cat.Package(r.Kind, r.Ident)))
	}
	plain *= 10

	gone := refs[99]
	changes, errs := watchRounds(t, c, twin, refs, 10, func(n int) {
		if n == 999 {
			assert.NoError(t, twin.RemovePackage(gone.Kind, gone.Ident))
		}
	})
	require.Empty(t, errs)
	require.Len(t, changes, 101)
	for i, ch := range changes[:100] {
		assert.Equal(t, Added, ch.Op)
		assert.Equal(t, refs[i].Ident, ch.New.Ident)
	}
	assert.Equal(t, Removed, changes[100].Op)
	assert.Equal(t, gone.Ident, changes[100].Old.Ident)
	// The refused request is logged just after it ended the watch.
	require.NoError(t, twin.WaitRequests(context.Background(), 1000+1))
	reqs := twin.Requests()
	require.Len(t, reqs, 1000+1, "the last one is refused")
	var bytes int64
	for _, r := range reqs[:1000] {
		bytes += int64(r.Bytes)
	}
	t.Logf("10 rounds of 100 records: %d body bytes against %d for plain polling (%.1f%%)", bytes, plain, 100*float64(bytes)/float64(plain))
	assert.Less(t, float64(bytes), 0.15*float64(plain), "%d bytes against %d for plain polling", bytes, plain)
	assert.Equal(t, int64(900-1), c.Stats().CacheRevalidations)
}

func TestPackagesWatchReportsEachChangeOnce(t *testing.T) {
	twin, refs := watchTwin(t, 10)
	c := cachingClient(t, twin.URL, newFakeClock())
	renamed, gone := refs[3], refs[5]
	before := twin.Catalog().Package(renamed.Kind, renamed.Ident)
	var after []byte
	players := 1.0
	changes, errs := watchRounds(t, c, twin, refs, 8, func(n int) {
		switch n {
		case 20: // round 3: one package changes, another goes
			assert.NoError(t, twin.UpdatePackage(renamed.Kind, renamed.Ident, gamedatatest.PackageUpdate{Title: "Renamed", Players: &players}))
			assert.NoError(t, twin.RemovePackage(gone.Kind, gone.Ident))
			after = twin.Catalog().Package(renamed.Kind, renamed.Ident)
		case 50: // round 6: it comes back
			assert.NoError(t, twin.AddPackage(gone.Kind, gone.Ident, "Back"))
		}
	})
	require.Empty(t, errs)
	require.Len(t, changes, 13)
	later := changes[10:]
	assert.Equal(t, Updated, later[0].Op)
	assert.Equal(t, renamed.Ident, later[0].Old.Ident)
	assert.Equal(t, string(bytes.TrimSpace(after)), string(later[0].New.JSON()))
	assert.Equal(t, string(bytes.TrimSpace(before)), string(later[0].Old.JSON()))
	assert.NotEqual(t, string(before), string(after))
	assert.Equal(t, Change[*Package]{Op: Removed, Old: changes[5].New}, later[1])
	assert.Equal(t, Added, later[2].Op)
	assert.Equal(t, gone.Ident, later[2].New.Ident)
	assert.Nil(t, later[2].Old)
}

// A service that answers 304 to a stale ETag forever is caught by the
// full re-read. The twin's ETags follow its bodies, so the stuck one is
// the test's answer: every record is sent with the ETag "forever", which
// always matches.
func TestPackagesWatchRereadsAStuckValidator(t *testing.T) {
	twin, refs := watchTwin(t, 1)
	const stuck = `"forever"`
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var requests atomic.Int32
	twin.SetFaults(gamedatatest.Faults{
		Rate: 1,
		Match: func(*http.Request) bool {
			if requests.Add(1) > pace.FullEvery+2 { // a watch that never re-reads ends here
				cancel()
			}
			return true
		},
		Answer: func(w http.ResponseWriter, r *http.Request, real gamedatatest.Response) {
			for k, v := range real.Header {
				w.Header()[k] = v
			}
			w.Header().Set("ETag", stuck)
			if r.Header.Get("If-None-Match") == stuck {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.WriteHeader(real.Status)
			w.Write(real.Body)
		},
	})
	srv, log := newServer(t, twin.Handler().ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	players := 7.0
	var got []Change[*Package]
	for ch, err := range c.Packages.Watch(ctx, refs, time.Minute) {
		require.NoError(t, err)
		if got = append(got, ch); len(got) == 1 { // changed at once, hidden by the stuck ETag
			require.NoError(t, twin.UpdatePackage(refs[0].Kind, refs[0].Ident, gamedatatest.PackageUpdate{Players: &players}))
			continue
		}
		break
	}
	require.Len(t, got, 2)
	assert.Equal(t, Added, got[0].Op)
	assert.Equal(t, Updated, got[1].Op)
	var full []int
	for i, r := range log.all() {
		if r.Header.Get("If-None-Match") == "" {
			full = append(full, i)
		}
	}
	assert.Equal(t, []int{0, pace.FullEvery + 1}, full, "the first read and one full re-read, after %d polls answered 304", pace.FullEvery)
	assert.Equal(t, pace.FullEvery+2, log.len(), "the re-read is the poll that sees the change")
}

func TestPackagesWatchGoesOnAfterAFailedPoll(t *testing.T) {
	twin, refs := watchTwin(t, 2)
	var requests atomic.Int32
	twin.SetFaults(gamedatatest.Faults{
		Rate:  1,
		Kinds: []gamedatatest.Fault{gamedatatest.Fault500},
		Match: func(*http.Request) bool { return requests.Add(1) == 2 },
	})
	c := cachingClient(t, twin.URL, newFakeClock(), WithRetryMax(0))
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
	assert.Equal(t, []string{"added " + refs[0].Ident, "error", "added " + refs[1].Ident}, ops)
}

func TestPackagesWatchEndsWithItsContext(t *testing.T) {
	twin, refs := watchTwin(t, 3)
	c := cachingClient(t, twin.URL, newFakeClock())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var requests atomic.Int32
	twin.SetFaults(gamedatatest.Faults{
		Rate: 1,
		Match: func(*http.Request) bool {
			if requests.Add(1) == 5 { // the second round's second poll
				cancel()
			}
			return false
		},
	})
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
			assert.Equal(t, attempt.MaxRetryAfter, delay.RetryAfter, "as much as the client reads of it")
			assert.Equal(t, 4*time.Minute, delay.Wait)
			assert.Contains(t, delay.Error(), "the service asked to wait 8760h0m0s, longer than a watch waits; the next poll is in 4m0s: ")
			assert.Equal(t, 4*time.Minute, slices.Max(clk.Slept()), "no wait longer than the bound")
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
