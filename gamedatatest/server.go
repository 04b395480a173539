package gamedatatest

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Server is a running in-process twin of the service, listening on a local
// address. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL of the twin, of the form http://ipaddr:port with
	// no trailing slash; pass it to a client as the service's base URL.
	URL string

	ts *httptest.Server
	h  *handler
}

// NewServer starts a twin of the service on a local address with an
// httptest.Server. The caller must call Close when done.
func NewServer(opts ...Option) *Server {
	cfg := config{
		seed:          DefaultSeed,
		packages:      DefaultPackages,
		servers:       DefaultServers,
		organizations: DefaultOrganizations,
		clock:         wallClock{},
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	h := newHandler(&cfg)
	ts := httptest.NewServer(h)
	return &Server{URL: ts.URL, ts: ts, h: h}
}

// Close ends pending latency waits and stalls and shuts the server down,
// blocking until all outstanding requests have completed and their entries
// in Requests are final.
func (s *Server) Close() {
	s.h.closeOnce.Do(func() { close(s.h.done) })
	s.h.faults.Close()
	s.ts.Close()
	// httptest stops waiting for a connection once it is hijacked: the
	// entries of those the injector took over (a reset, a cut, an ended
	// stall) are waited for here.
	s.h.faults.log.settle(func(Request) bool { return true })
}

// Client returns an HTTP client configured for the server (the httptest
// server's client). It is closed with the server.
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Handler returns the handler that serves the twin, for mounting it on a
// server of one's own. It shares the catalogue, faults, rate limit and
// request log with s. Mounted under a prefix with http.StripPrefix, its
// redirects keep the prefix.
func (s *Server) Handler() http.Handler { return s.h }

// Requests returns the log of the requests received so far, in the order
// they arrived. A request still being answered (a stall, a latency wait
// that has reached the fault injector) has Done false.
func (s *Server) Requests() []Request { return s.h.faults.Requests() }

// WaitRequests blocks until at least n requests have arrived, answered or
// not, or ctx is done; a test waits for a request that stalls this way.
// Requests still in a WithLatency wait have not arrived yet.
func (s *Server) WaitRequests(ctx context.Context, n int) error {
	return s.h.faults.WaitRequests(ctx, n)
}

// Catalog returns the data the server holds right now, the ground truth to
// compare a client's results with.
func (s *Server) Catalog() *Catalog { return newCatalog(s.h.snap.Load()) }

// SetRateLimit limits the server to perSecond requests a second with bursts
// of up to burst (a token bucket; burst < 1 counts as 1). A request beyond
// the limit is answered 429 with a Retry-After header in whole seconds (at
// least 1) and a JSON error body. perSecond <= 0 removes the limit, the
// default. The limit applies to every path; a request that meets a fault
// does not spend a token. Tokens already saved are kept, up to the new
// burst.
func (s *Server) SetRateLimit(perSecond float64, burst int) {
	s.h.limit.set(perSecond, burst, s.h.clock.Now())
}

// SetFaults replaces the fault injection, and restarts its random sequence
// from the fault seed, so that the same requests in the same order meet the
// same faults. Faults.Seed 0 uses the server's seed.
func (s *Server) SetFaults(f Faults) { s.h.faults.Set(f) }

// SetCachePolicy sets the caching policy of family f. With validators, a
// 200 answer carries a strong ETag derived from its body bytes and a
// Last-Modified (the last change to the twin's data); a request whose
// If-None-Match names that ETag (or "*"), or without If-None-Match whose
// If-Modified-Since is not before Last-Modified, is answered 304 with no
// body, logged with Status 304 and Bytes 0. Faults are drawn before, so a
// conditional request can still meet one.
func (s *Server) SetCachePolicy(f Family, p CachePolicy) { s.h.caching.set(f, p) }

// ReorderEvery makes the dashboard shift: after every n dashboard requests,
// the players of some packages and servers change, so the players-sorted
// order moves between pages of a walk. Every request reaching
// /api/dashboard counts, whatever its query. n <= 0 stops it (the default).
// Each shift is reproducible for the seed.
func (s *Server) ReorderEvery(n int) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.reorderEvery, s.h.dirCount = max(n, 0), 0
}

// handler serves the twin: a latency wait, then the fault injector, then
// the twin's own answer.
type handler struct {
	latency time.Duration
	clock   clock
	done    chan struct{}

	snap atomic.Pointer[catalog.Snapshot]

	mu           sync.Mutex // serializes changes of snap
	reorderEvery int
	dirCount     int
	reorderStep  uint64

	faults    *FaultInjector
	limit     limiter
	caching   cachePolicies
	recording *Recording // served in place of the catalogue, when set

	closeOnce sync.Once
}

func newHandler(cfg *config) *handler {
	h := &handler{latency: cfg.latency, clock: cfg.clock, done: make(chan struct{}), recording: cfg.recording}
	h.snap.Store(cfg.started(catalog.Generate(catalog.Config{
		Seed: cfg.seed, Packages: cfg.packages, Servers: cfg.servers, Organizations: cfg.organizations,
		HistoryPoints: cfg.historyPoints, Awkward: cfg.awkward,
	})))
	h.faults = newFaultInjector(http.HandlerFunc(h.serve), cfg.faults, cfg.seed)
	h.limit.set(cfg.perSecond, cfg.burst, h.clock.Now())
	for f, p := range cfg.caching {
		h.caching.set(f, p)
	}
	return h
}

// countDirectoryRequest counts a dashboard request and shifts the order
// when ReorderEvery says so, before the request reads the catalogue.
func (h *handler) countDirectoryRequest() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.reorderEvery <= 0 {
		return
	}
	h.dirCount++
	if h.dirCount > h.reorderEvery {
		h.dirCount = 1
		h.reorderStep++
		h.snap.Store(h.snap.Load().Reordered(h.reorderStep))
	}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.latency > 0 {
		passed, stop := h.clock.Timer(h.latency)
		select {
		case <-passed:
		case <-r.Context().Done():
		case <-h.done:
		}
		stop()
	}
	h.faults.ServeHTTP(w, r)
}

// serve answers a request that met no fault.
func (h *handler) serve(w http.ResponseWriter, r *http.Request) {
	var rep reply
	switch ok, wait := h.limit.take(h.clock.Now()); {
	case r.Method != http.MethodGet:
		rep = errorReply(http.StatusMethodNotAllowed, "method not allowed")
		rep.header = http.Header{"Allow": {http.MethodGet}}
	case !ok:
		rep = errorReply(http.StatusTooManyRequests, "rate limit exceeded")
		secs := max(int(math.Ceil(wait.Seconds())), 1)
		rep.header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	case h.recording != nil:
		rep = h.recording.answer(r, h.recording.matchOf(r.Method, r.URL))
	default:
		rep = h.caching.conditional(r, h.route(r))
	}
	rep.write(w)
}

// route answers a GET. A dashboard request is counted for ReorderEvery
// before it reads the catalogue, so a shift it causes applies to it.
func (h *handler) route(r *http.Request) reply {
	m, args, ok := manifest.Match(r.URL.EscapedPath())
	e, answered := endpoints[m.Path]
	if !ok || !answered {
		return notFound
	}
	if e.family == FamilyDashboard {
		h.countDirectoryRequest()
	}
	s := h.snap.Load()
	rep := e.serve(s, r, args)
	rep.family = e.family
	if rep.modified.IsZero() {
		rep.modified = s.Modified()
	}
	return rep
}
