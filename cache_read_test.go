package gamedata

import (
	"context"
	"fmt"
	"hash/crc32"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

const recordBody = `{"kind":"game","ident":"space-miner","title":"Space Miner","players":1250}`

// resource is a test service for one resource whose response headers and
// body a test sets; it answers If-None-Match and If-Modified-Since with 304
// when they match, and counts the body bytes it sends.
type resource struct {
	mu     sync.Mutex
	status int
	header http.Header
	body   string
	bytes  atomic.Int64
}

func newResource(body string, header ...string) *resource {
	o := &resource{status: http.StatusOK, body: body}
	o.set(header...)
	return o
}

// set replaces the response headers, given as name, value pairs.
func (o *resource) set(header ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.header = http.Header{}
	for i := 0; i < len(header); i += 2 {
		o.header.Add(header[i], header[i+1])
	}
}

func (o *resource) setBody(body string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.body = body
}

func (o *resource) setStatus(status int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.status = status
}

func (o *resource) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	status, header, body := o.status, o.header.Clone(), o.body
	o.mu.Unlock()
	for k, v := range header {
		w.Header()[k] = v
	}
	etag, lm := header.Get("Etag"), header.Get("Last-Modified")
	inm, ims := r.Header.Get("If-None-Match"), r.Header.Get("If-Modified-Since")
	if status == http.StatusOK && ((etag != "" && inm == etag) || (inm == "" && lm != "" && ims == lm)) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	n, _ := w.Write([]byte(body))
	o.bytes.Add(int64(n))
}

// cachingClient is a client of srv on a fake clock.
func cachingClient(t *testing.T, url string, clk *fakeClock, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, url, append([]Option{withClock(clk)}, opts...)...)
}

func getTestRecord(t *testing.T, c *Client) *Package {
	t.Helper()
	p, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
	require.NoError(t, err)
	return p
}

func TestCacheServesAndRevalidates(t *testing.T) {
	lastModified := "Sun, 22 Nov 2026 10:00:00 GMT"
	for _, tc := range []struct {
		name   string
		header []string
		opts   []Option
		// conditional is the header the second request carries, "" for
		// a full request, "none" when no second request is sent.
		conditional string
		wantStats   ClientStats
	}{
		{"max-age", []string{"Cache-Control", "max-age=60"}, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"expires", []string{"Expires", "Sun, 22 Nov 2026 12:01:00 GMT", "Date", "Sun, 22 Nov 2026 12:00:00 GMT"}, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"no-cache with etag", []string{"Cache-Control", "no-cache", "Etag", `"v1"`}, nil, "If-None-Match", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"etag alone", []string{"Etag", `"v1"`}, nil, "If-None-Match", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"last-modified alone", []string{"Last-Modified", lastModified}, nil, "If-Modified-Since", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"private max-age", []string{"Cache-Control", "private, max-age=60"}, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"vary accept-encoding", []string{"Cache-Control", "max-age=60", "Vary", "Accept-Encoding"}, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"no-store", []string{"Cache-Control", "no-store", "Etag", `"v1"`}, nil, "", ClientStats{CacheMisses: 2}},
		{"neither freshness nor validator", nil, nil, "", ClientStats{CacheMisses: 2}},
		{"vary on another header", []string{"Cache-Control", "max-age=60", "Vary", "Accept-Language"}, nil, "", ClientStats{CacheMisses: 2}},
		{"caching off", []string{"Cache-Control", "max-age=60", "Etag", `"v1"`}, []Option{WithCache(nil)}, "", ClientStats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newResource(recordBody, tc.header...)
			srv, log := newServer(t, o.ServeHTTP)
			c := cachingClient(t, srv.URL, newFakeClock(), tc.opts...)
			first := getTestRecord(t, c)
			second := getTestRecord(t, c)
			assert.Equal(t, first, second)
			reqs := log.all()
			switch tc.conditional {
			case "none":
				assert.Len(t, reqs, 1)
			case "":
				require.Len(t, reqs, 2)
				assert.Empty(t, reqs[1].Header.Get("If-None-Match"))
				assert.Empty(t, reqs[1].Header.Get("If-Modified-Since"))
				assert.Equal(t, int64(2*len(recordBody)), o.bytes.Load())
			default:
				require.Len(t, reqs, 2)
				assert.NotEmpty(t, reqs[1].Header.Get(tc.conditional))
				assert.Equal(t, int64(len(recordBody)), o.bytes.Load(), "the 304 carries no body")
			}
			s := c.Stats()
			assert.Equal(t, tc.wantStats, ClientStats{CacheHits: s.CacheHits, CacheRevalidations: s.CacheRevalidations, CacheMisses: s.CacheMisses})
		})
	}
}

func TestCacheStaleEntryIsRevalidatedAndRefreshed(t *testing.T) {
	o := newResource(recordBody, "Cache-Control", "max-age=60", "Etag", `"v1"`)
	srv, log := newServer(t, o.ServeHTTP)
	clk := newFakeClock()
	c := cachingClient(t, srv.URL, clk)
	getTestRecord(t, c)
	clk.advance(61 * time.Second)
	getTestRecord(t, c)
	require.Equal(t, 2, log.len())
	assert.Equal(t, `"v1"`, log.all()[1].Header.Get("If-None-Match"))

	clk.advance(59 * time.Second)
	getTestRecord(t, c)
	assert.Equal(t, 2, log.len(), "the 304 made the entry fresh again")

	clk.advance(2 * time.Second)
	o.set("Cache-Control", "max-age=60", "Etag", `"v2"`)
	o.setBody(`{"kind":"game","ident":"space-miner","players":1}`)
	p := getTestRecord(t, c)
	players, _ := p.Metric("players").Get()
	assert.Equal(t, 1.0, players)
	clk.advance(time.Second)
	assert.Equal(t, p.JSON(), getTestRecord(t, c).JSON(), "the new version replaced the entry")
	assert.Equal(t, 3, log.len())
}

func TestCacheStaleIfError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cc    string
		serve bool
	}{
		{"allowed", "max-age=1, stale-if-error=60", true},
		{"not allowed", "max-age=1", false},
		{"must-revalidate", "max-age=1, stale-if-error=60, must-revalidate", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := newResource(recordBody, "Cache-Control", tc.cc, "Etag", `"v1"`)
			srv, _ := newServer(t, o.ServeHTTP)
			clk := newFakeClock()
			c := cachingClient(t, srv.URL, clk, WithRetryMax(0))
			first := getTestRecord(t, c)
			clk.advance(2 * time.Second)
			o.setStatus(http.StatusServiceUnavailable)
			p, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
			if tc.serve {
				require.NoError(t, err)
				assert.Equal(t, first, p)
				return
			}
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
		})
	}
}

// A body that fails to decode is never stored, so the next call asks
// again and gets the good one.
func TestCacheStoresOnlyDecodedBodies(t *testing.T) {
	o := newResource(`{"kind":"game","ident":`, "Cache-Control", "max-age=60")
	srv, log := newServer(t, o.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	_, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	o.setBody(recordBody)
	getTestRecord(t, c)
	getTestRecord(t, c)
	assert.Equal(t, 2, log.len())
}

func TestCacheOddValidatorAnswers(t *testing.T) {
	t.Run("304 naming another version", func(t *testing.T) {
		var calls atomic.Int32
		srv, log := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Etag", `"v`+strconv.Itoa(int(calls.Add(1)))+`"`)
			if r.Header.Get("If-None-Match") != "" {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, recordBody)
		})
		c := cachingClient(t, srv.URL, newFakeClock())
		getTestRecord(t, c)
		getTestRecord(t, c)
		reqs := log.all()
		require.Len(t, reqs, 3, "a 304 about another version is followed by a full read")
		assert.Empty(t, reqs[2].Header.Get("If-None-Match"))
	})
	t.Run("304 to a request without validators", func(t *testing.T) {
		srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
		for _, opt := range []Option{WithCache(NewMemoryCache(1 << 20)), WithCache(nil)} {
			c := cachingClient(t, srv.URL, newFakeClock(), opt)
			_, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
			assert.ErrorContains(t, err, "304 Not Modified to a request that named no validator")
		}
	})
}

func TestSkipCache(t *testing.T) {
	o := newResource(recordBody, "Cache-Control", "max-age=60", "Etag", `"v1"`)
	srv, log := newServer(t, o.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock())
	getTestRecord(t, c)
	_, err := c.Packages.Get(SkipCache(context.Background()), KindGame, "space-miner")
	require.NoError(t, err)
	reqs := log.all()
	require.Len(t, reqs, 2)
	assert.Empty(t, reqs[1].Header.Get("If-None-Match"), "SkipCache sends a full request")
	getTestRecord(t, c)
	assert.Equal(t, 2, log.len(), "the entry stays usable")
}

// A fresh hit sends nothing and so does not wait on the limiter; a
// revalidation does.
func TestCacheHitDoesNotWaitOnTheLimiter(t *testing.T) {
	o := newResource(recordBody, "Cache-Control", "max-age=60", "Etag", `"v1"`)
	srv, _ := newServer(t, o.ServeHTTP)
	clk := newFakeClock()
	c := cachingClient(t, srv.URL, clk, WithRateLimit(rate.Every(time.Hour), 1), WithAdaptiveRate(false))
	getTestRecord(t, c) // spends the only token for an hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Packages.Get(ctx, KindGame, "space-miner")
	require.NoError(t, err, "a fresh hit needs no token")
	clk.advance(time.Hour)
	_, err = c.Packages.Get(ctx, KindGame, "space-miner")
	assert.ErrorIs(t, err, context.DeadlineExceeded, "a revalidation waits on the limiter, which has no token before the deadline")
}

func TestDiskCacheSurvivesANewClient(t *testing.T) {
	dir := t.TempDir()
	o := newResource(recordBody, "Cache-Control", "max-age=60")
	srv, log := newServer(t, o.ServeHTTP)
	clk := newFakeClock()
	newClient := func() *Client {
		dc, err := NewDiskCache(dir)
		require.NoError(t, err)
		return cachingClient(t, srv.URL, clk, WithCache(dc))
	}
	first := getTestRecord(t, newClient())
	assert.Equal(t, first, getTestRecord(t, newClient()))
	assert.Equal(t, 1, log.len(), "a new client reads the entry from disk")
}

// etagDirectory is a test directory of pages of 10 entries, each page
// with an ETag derived from its body and already stale, which answers a
// matching If-None-Match with 304. failPage, when set, answers 500.
type etagDirectory struct {
	mu                    sync.Mutex
	idents                []string
	failPage              int
	requests, notModified atomic.Int64
	bytes                 atomic.Int64
}

func newEtagDirectory(n int) *etagDirectory {
	d := &etagDirectory{}
	for i := range n {
		d.idents = append(d.idents, fmt.Sprintf("g%03d", i))
	}
	return d
}

func (d *etagDirectory) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.requests.Add(1)
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	d.mu.Lock()
	idents, failPage := d.idents, d.failPage
	d.mu.Unlock()
	if page == failPage {
		http.Error(w, `{"error":"fault"}`, http.StatusInternalServerError)
		return
	}
	b := []byte(`{"items":[`)
	for i := (page - 1) * 10; i < min(page*10, len(idents)); i++ {
		if i > (page-1)*10 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"kind":"game","ident":%q,"title":"Game %s","players":%d}`, idents[i], idents[i], len(idents[i])*100)
	}
	b = fmt.Appendf(b, `],"pagination":{"page":%d,"hasNext":%t}}`, page, page*10 < len(idents))
	etag := fmt.Sprintf(`"%08x"`, crc32.ChecksumIEEE(b))
	w.Header().Set("Etag", etag)
	w.Header().Set("Cache-Control", "max-age=0")
	if r.Header.Get("If-None-Match") == etag {
		d.notModified.Add(1)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	k, _ := w.Write(b)
	d.bytes.Add(int64(k))
}

func TestCacheRevalidatesAStaleDirectoryPageByPage(t *testing.T) {
	d := newEtagDirectory(300)
	srv, _ := newServer(t, d.ServeHTTP)
	c := cachingClient(t, srv.URL, newFakeClock(), WithPrefetch(0))
	walk := func() []string {
		var ids []string
		for e, err := range c.Dashboard.All(context.Background(), &DashboardOptions{Kind: KindGame}) {
			require.NoError(t, err)
			ids = append(ids, e.Ident)
		}
		return ids
	}
	first := walk()
	require.Len(t, first, 300)
	firstBytes := d.bytes.Load()
	d.requests.Store(0)

	assert.Equal(t, first, walk())
	assert.Equal(t, int64(30), d.requests.Load())
	assert.Equal(t, int64(30), d.notModified.Load(), "every page answered 304")
	assert.Less(t, float64(d.bytes.Load()-firstBytes), 0.05*float64(firstBytes))
	assert.Equal(t, int64(30), c.Stats().CacheRevalidations)
}
