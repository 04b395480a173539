package gamedata

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// faultyTwin serves a twin of five packages through gamedatatest.InjectFaults
// with f, and returns the twin and the URL to reach it.
func faultyTwin(t *testing.T, f gamedatatest.Faults, opts ...gamedatatest.Option) (*gamedatatest.Server, string) {
	t.Helper()
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSize(5, 2, 1)}, opts...)...)
	t.Cleanup(twin.Close)
	fi := gamedatatest.InjectFaults(twin.Handler(), f)
	srv := httptest.NewServer(fi)
	t.Cleanup(srv.Close)
	t.Cleanup(fi.Close)
	return twin, srv.URL
}

func firstPackage(twin *gamedatatest.Server) PackageRef {
	p := twin.Catalog().Packages[0]
	return PackageRef{Kind: p.Kind, Ident: p.Ident}
}

func TestResponseOfAFreshHit(t *testing.T) {
	t.Parallel()
	_, srv, _, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	c := cachingClient(t, srv.URL, newFakeClock())
	var first, hit Response
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&first))
	require.NoError(t, err)
	_, err = c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&hit))
	require.NoError(t, err)

	assert.Equal(t, CacheMiss, first.Cache)
	assert.Equal(t, 1, first.Attempts)
	assert.Equal(t, CacheHit, hit.Cache)
	assert.Equal(t, 0, hit.Attempts, "a fresh hit sends nothing")
	assert.Equal(t, http.StatusOK, hit.StatusCode, "the stored response's status")
	assert.Equal(t, first.Header.Get("ETag"), hit.Header.Get("ETag"), "the stored response's validators")
	assert.Zero(t, hit.RateLimitWait)
}

func TestResponseOfARetriedCall(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	ref := firstPackage(twin)
	var r Response
	_, err := newTestClient(t, url).Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&r))
	require.NoError(t, err)
	assert.Equal(t, 2, r.Attempts)
	assert.Equal(t, http.StatusOK, r.StatusCode)
	assert.Equal(t, CacheMiss, r.Cache)
	assert.Contains(t, r.Header.Get("Content-Type"), "application/json")
}

func TestResponseOfARevalidation(t *testing.T) {
	t.Parallel()
	_, srv, _, ref := cacheTwin(t, gamedatatest.DefaultCachePolicy, nil)
	c := cachingClient(t, srv.URL, newFakeClock())
	getTestRecord(t, c, ref)
	var r Response
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&r))
	require.NoError(t, err)
	assert.Equal(t, CacheRevalidated, r.Cache)
	assert.Equal(t, 1, r.Attempts)
	assert.Equal(t, http.StatusOK, r.StatusCode, "a revalidated call serves the stored 200")
	assert.NotEmpty(t, r.Header.Get("ETag"))
}

func TestResponseCacheOff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts []Option
		call []CallOption
	}{
		{"no cache", []Option{WithCache(nil)}, nil},
		{"CacheSkip", nil, []CallOption{WithCacheMode(CacheSkip)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, srv, _, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
			c := cachingClient(t, srv.URL, newFakeClock(), tt.opts...)
			for range 2 {
				var r Response
				_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, append(tt.call, WithResponseInto(&r))...)
				require.NoError(t, err)
				assert.Equal(t, CacheOff, r.Cache)
				assert.Equal(t, 1, r.Attempts)
			}
		})
	}
}

// The limiter runs on the client's clock, so its wait, and the call's
// duration, are exact on a fake one.
func TestResponseDurationAndRateLimitWait(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{})
	ref := firstPackage(twin)
	clk := newFakeClock()
	c := newTestClient(t, url, withClock(clk), WithCache(nil), WithRateLimit(rate.Every(time.Second), 1))
	var first, second Response
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&first))
	require.NoError(t, err)
	_, err = c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&second))
	require.NoError(t, err)
	assert.Zero(t, first.RateLimitWait, "the first call has the token")
	assert.Equal(t, time.Second, second.RateLimitWait, "the second waits a second for the next")
	assert.Equal(t, time.Second, second.Duration, "the fake clock moved only while the call waited")
}

func TestAPIErrorCarriesTheResponse(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault502}})
	ref := firstPackage(twin)
	var into Response
	_, err := newTestClient(t, url, WithRetryMax(1)).Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&into))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadGateway, apiErr.Response.StatusCode)
	assert.Equal(t, 2, apiErr.Response.Attempts)
	assert.NotNil(t, apiErr.Response.Header)
	assert.Equal(t, apiErr.Response, into, "the error and WithResponseInto see one Response")
}

func TestCacheStatusString(t *testing.T) {
	t.Parallel()
	for s, want := range map[CacheStatus]string{CacheOff: "off", CacheMiss: "miss", CacheHit: "hit", CacheRevalidated: "revalidated", 9: "CacheStatus(9)"} {
		assert.Equal(t, want, s.String())
	}
}

// A Response marshalled to JSON says its cache status by name, and reads
// it back; a status without a name is refused rather than written as a
// number no reader knows.
func TestCacheStatusJSON(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(Response{Cache: CacheRevalidated})
	require.NoError(t, err)
	assert.Contains(t, string(b), `"Cache":"revalidated"`)
	var r Response
	require.NoError(t, json.Unmarshal(b, &r))
	assert.Equal(t, CacheRevalidated, r.Cache)
	_, err = json.Marshal(CacheStatus(9))
	assert.Error(t, err)
	assert.Error(t, json.Unmarshal([]byte(`"fresh"`), new(CacheStatus)))
}

// A walk hands on each page's own Response: the page that needed a retry
// says so, and the others do not.
func TestWalkResponsePerPage(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{
		Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1,
		Match: func(r *http.Request) bool { return r.URL.Query().Get("page") == "2" },
	})
	c := newTestClient(t, url)
	var r Response
	attempts := map[int]int{} // page to the attempts its items saw
	i := 0
	for _, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 2}}, nil, WithResponseInto(&r)) {
		require.NoError(t, err)
		attempts[i/2+1] = r.Attempts
		i++
	}
	n := len(twin.Catalog().Entries(nil))
	require.Equal(t, n, i)
	want := map[int]int{}
	for page := 1; page <= (n+1)/2; page++ {
		want[page] = 1
	}
	want[2] = 2
	assert.Equal(t, want, attempts)
}

// GetMany hands on each item's own Response.
func TestGetManyResponsePerItem(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500}, Attempts: 1})
	c := newTestClient(t, url)
	var refs []PackageRef
	for _, p := range twin.Catalog().Packages[:3] {
		refs = append(refs, PackageRef{Kind: p.Kind, Ident: p.Ident})
	}
	refs = append(refs, PackageRef{Kind: KindGame, Ident: "no-such-package"})
	var r Response
	var statuses []int
	for _, err := range c.Packages.GetMany(context.Background(), refs, 2, WithResponseInto(&r), WithCallRetries(1)) {
		statuses = append(statuses, r.StatusCode)
		if r.StatusCode == http.StatusOK {
			assert.NoError(t, err)
		}
		assert.Equal(t, 2, r.Attempts, "each item failed once")
	}
	assert.Equal(t, []int{200, 200, 200, 404}, statuses)
}

// A watch hands on each poll's Response with what the poll yields: the
// first poll reads the package in full, the next is a conditional
// request answered 304.
func TestWatchResponsePerPoll(t *testing.T) {
	t.Parallel()
	_, srv, _, ref := cacheTwin(t, gamedatatest.DefaultCachePolicy, nil)
	c := cachingClient(t, srv.URL, newFakeClock())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var r Response
	var seen []CacheStatus
	// The second poll changes nothing and yields nothing: its Response
	// is read as the third starts, in its middleware, which then stops
	// the watch.
	polls := 0
	var second Response
	stop := WithCallMiddleware(func(req *http.Request, next Next) (*http.Response, error) {
		if polls++; polls == 3 {
			second = r
			cancel()
		}
		return next.RoundTrip(req)
	})
	for ch, err := range c.Packages.Watch(ctx, []PackageRef{ref}, time.Minute, WithResponseInto(&r), stop) {
		require.NoError(t, err)
		assert.Equal(t, Added, ch.Op)
		seen = append(seen, r.Cache)
		assert.Equal(t, http.StatusOK, r.StatusCode)
		assert.Equal(t, 1, r.Attempts)
	}
	assert.Equal(t, []CacheStatus{CacheOff}, seen, "the first poll is a full read (CacheSkip)")
	assert.Equal(t, CacheRevalidated, second.Cache, "the second poll revalidated")
	assert.Equal(t, http.StatusOK, second.StatusCode)
}
