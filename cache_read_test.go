package gamedata

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// cacheTwin starts a twin of five packages whose package records are
// served with caching policy p, through edit when it is not nil (for the
// headers the twin does not send), and logs each request. It returns the
// twin, its server, the log and the first package.
func cacheTwin(t *testing.T, p gamedatatest.CachePolicy, edit func(http.Handler) http.Handler) (*gamedatatest.Server, *httptest.Server, *requestLog, PackageRef) {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 1), gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, p))
	t.Cleanup(twin.Close)
	h := twin.Handler()
	if edit != nil {
		h = edit(h)
	}
	srv, log := newServer(t, h.ServeHTTP)
	pkg := twin.Catalog().Packages[0]
	return twin, srv, log, PackageRef{Kind: pkg.Kind, Ident: pkg.Ident}
}

// editHeaders returns an edit for cacheTwin that adds the header pairs
// set to every answer and removes the headers named in drop: caching
// headers the twin's policies do not send.
func editHeaders(drop []string, set ...string) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i+1 < len(set); i += 2 {
				w.Header().Set(set[i], set[i+1])
			}
			h.ServeHTTP(&headerDropper{ResponseWriter: w, drop: drop}, r)
		})
	}
}

// headerDropper removes the headers named in drop when the answer's
// headers are sent.
type headerDropper struct {
	http.ResponseWriter
	drop []string
	sent bool
}

func (w *headerDropper) WriteHeader(code int) {
	if !w.sent {
		w.sent = true
		for _, name := range w.drop {
			w.Header().Del(name)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *headerDropper) Write(b []byte) (int, error) {
	if !w.sent {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// cachingClient is a client of srv on a fake clock.
func cachingClient(t *testing.T, url string, clk *fakeClock, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, url, append([]Option{withClock(clk)}, opts...)...)
}

func getTestRecord(t *testing.T, c *Client, ref PackageRef) *Package {
	t.Helper()
	p, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
	require.NoError(t, err)
	return p
}

func TestCacheServesAndRevalidates(t *testing.T) {
	t.Parallel()
	withValidators := func(cc string) gamedatatest.CachePolicy { return gamedatatest.CachePolicy{CacheControl: cc} }
	bare := gamedatatest.CachePolicy{NoValidators: true}
	for _, tc := range []struct {
		name   string
		policy gamedatatest.CachePolicy
		edit   func(http.Handler) http.Handler
		opts   []Option
		// conditional is the header the second request carries, "" for
		// a full request, "none" when no second request is sent.
		conditional string
		wantStats   ClientStats
	}{
		{"max-age", withValidators("max-age=60"), nil, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"expires", bare, editHeaders(nil, "Expires", "Sun, 22 Nov 2026 12:01:00 GMT", "Date", "Sun, 22 Nov 2026 12:00:00 GMT"), nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"no-cache with validators", withValidators("no-cache"), nil, nil, "If-None-Match", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"etag alone", withValidators(""), editHeaders([]string{"Last-Modified"}), nil, "If-None-Match", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"last-modified alone", withValidators(""), editHeaders([]string{"Etag"}), nil, "If-Modified-Since", ClientStats{CacheRevalidations: 1, CacheMisses: 1}},
		{"private max-age", withValidators("private, max-age=60"), nil, nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"vary accept-encoding", withValidators("max-age=60"), editHeaders(nil, "Vary", "Accept-Encoding"), nil, "none", ClientStats{CacheHits: 1, CacheMisses: 1}},
		{"no-store", withValidators("no-store"), nil, nil, "", ClientStats{CacheMisses: 2}},
		{"neither freshness nor validator", bare, nil, nil, "", ClientStats{CacheMisses: 2}},
		{"vary on another header", withValidators("max-age=60"), editHeaders(nil, "Vary", "Accept-Language"), nil, "", ClientStats{CacheMisses: 2}},
		{"caching off", withValidators("max-age=60"), nil, []Option{WithCache(nil)}, "", ClientStats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			twin, srv, log, ref := cacheTwin(t, tc.policy, tc.edit)
			c := cachingClient(t, srv.URL, newFakeClock(), tc.opts...)
			first := getTestRecord(t, c, ref)
			second := getTestRecord(t, c, ref)
			assert.Equal(t, first, second)
			reqs, answers := log.all(), twin.Requests()
			switch tc.conditional {
			case "none":
				assert.Len(t, reqs, 1)
			case "":
				require.Len(t, reqs, 2)
				assert.Empty(t, reqs[1].Header.Get("If-None-Match"))
				assert.Empty(t, reqs[1].Header.Get("If-Modified-Since"))
				assert.Equal(t, http.StatusOK, answers[1].Status)
				assert.Equal(t, answers[0].Bytes, answers[1].Bytes)
			default:
				require.Len(t, reqs, 2)
				assert.NotEmpty(t, reqs[1].Header.Get(tc.conditional))
				assert.Equal(t, http.StatusNotModified, answers[1].Status)
				assert.Zero(t, answers[1].Bytes, "the 304 carries no body")
			}
			s := c.Stats()
			assert.Equal(t, tc.wantStats, ClientStats{CacheHits: s.CacheHits, CacheRevalidations: s.CacheRevalidations, CacheMisses: s.CacheMisses})
		})
	}
}

func TestCacheStaleEntryIsRevalidatedAndRefreshed(t *testing.T) {
	t.Parallel()
	twin, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	clk := newFakeClock()
	c := cachingClient(t, srv.URL, clk)
	getTestRecord(t, c, ref)
	clk.Advance(61 * time.Second)
	getTestRecord(t, c, ref)
	require.Equal(t, 2, log.len())
	etag := log.all()[1].Header.Get("If-None-Match")
	assert.NotEmpty(t, etag)
	assert.Equal(t, http.StatusNotModified, twin.Requests()[1].Status)

	clk.Advance(59 * time.Second)
	getTestRecord(t, c, ref)
	assert.Equal(t, 2, log.len(), "the 304 made the entry fresh again")

	clk.Advance(2 * time.Second)
	players := 1.0
	require.NoError(t, twin.UpdatePackage(ref.Kind, ref.Ident, gamedatatest.PackageUpdate{Players: &players}))
	p := getTestRecord(t, c, ref)
	assert.Equal(t, etag, log.all()[2].Header.Get("If-None-Match"))
	assert.Equal(t, http.StatusOK, twin.Requests()[2].Status, "a new version")
	got, _ := p.Metric("players").Get()
	assert.Equal(t, 1.0, got)
	clk.Advance(time.Second)
	assert.Equal(t, p.JSON(), getTestRecord(t, c, ref).JSON(), "the new version replaced the entry")
	assert.Equal(t, 3, log.len())
}

func TestCacheStaleIfError(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
			twin, srv, _, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: tc.cc}, nil)
			clk := newFakeClock()
			c := cachingClient(t, srv.URL, clk, WithRetryMax(0))
			first := getTestRecord(t, c, ref)
			clk.Advance(2 * time.Second)
			twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}})
			p, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
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
	t.Parallel()
	twin, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	// Half the record, framed as whole, with the real answer's
	// Cache-Control: storable, were it decoded.
	record := twin.Catalog().Package(string(ref.Kind), ref.Ident)
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Attempts: 1, Answer: gamedatatest.Respond(gamedatatest.Response{
		Header: http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"max-age=60"}},
		Body:   record[:len(record)/2],
	})})
	c := cachingClient(t, srv.URL, newFakeClock())
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	getTestRecord(t, c, ref)
	getTestRecord(t, c, ref)
	assert.Equal(t, 2, log.len())
}

// Answers the twin never gives: a 304 that names another version, and a
// 304 to a full request.
func TestCacheOddValidatorAnswers(t *testing.T) {
	t.Run("304 naming another version", func(t *testing.T) {
		twin, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "no-cache"}, nil)
		twin.SetFaults(gamedatatest.Faults{
			Rate: 1, Attempts: 1,
			Match:  func(r *http.Request) bool { return r.Header.Get("If-None-Match") != "" },
			Answer: gamedatatest.Respond(gamedatatest.Response{Status: http.StatusNotModified, Header: http.Header{"Etag": {`"another"`}}}),
		})
		c := cachingClient(t, srv.URL, newFakeClock())
		getTestRecord(t, c, ref)
		getTestRecord(t, c, ref)
		reqs := log.all()
		require.Len(t, reqs, 3, "a 304 about another version is followed by a full read")
		assert.NotEmpty(t, reqs[1].Header.Get("If-None-Match"))
		assert.Empty(t, reqs[2].Header.Get("If-None-Match"))
	})
	t.Run("304 to a request without validators", func(t *testing.T) {
		twin, _ := newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Answer: gamedatatest.Respond(gamedatatest.Response{Status: http.StatusNotModified})}))
		for _, opt := range []Option{WithCache(NewMemoryCache(1 << 20)), WithCache(nil)} {
			c := cachingClient(t, twin.URL, newFakeClock(), opt)
			_, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
			assert.ErrorContains(t, err, "304 Not Modified to a request that named no validator")
		}
	})
}

func TestSkipCache(t *testing.T) {
	t.Parallel()
	_, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	c := cachingClient(t, srv.URL, newFakeClock())
	getTestRecord(t, c, ref)
	_, err := c.Packages.Get(SkipCache(context.Background()), ref.Kind, ref.Ident)
	require.NoError(t, err)
	reqs := log.all()
	require.Len(t, reqs, 2)
	assert.Empty(t, reqs[1].Header.Get("If-None-Match"), "SkipCache sends a full request")
	getTestRecord(t, c, ref)
	assert.Equal(t, 2, log.len(), "the entry stays usable")
}

// A fresh hit sends nothing and so does not wait on the limiter; a
// revalidation does.
func TestCacheHitDoesNotWaitOnTheLimiter(t *testing.T) {
	t.Parallel()
	_, srv, _, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	clk := newFakeClock()
	c := cachingClient(t, srv.URL, clk, WithRateLimit(rate.Every(time.Hour), 1))
	getTestRecord(t, c, ref) // spends the only token for an hour
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.Packages.Get(ctx, ref.Kind, ref.Ident)
	require.NoError(t, err, "a fresh hit needs no token")
	clk.Advance(2 * time.Minute) // stale, and the limiter, on the same clock, has no token for 58 minutes
	_, err = c.Packages.Get(ctx, ref.Kind, ref.Ident)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "a revalidation waits on the limiter, which has no token before the deadline")
}

func TestDiskCacheSurvivesANewClient(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	clk := newFakeClock()
	newClient := func() *Client {
		dc, err := NewDiskCache(dir)
		require.NoError(t, err)
		return cachingClient(t, srv.URL, clk, WithCache(dc))
	}
	first := getTestRecord(t, newClient(), ref)
	assert.Equal(t, first, getTestRecord(t, newClient(), ref))
	assert.Equal(t, 1, log.len(), "a new client reads the entry from disk")
}
