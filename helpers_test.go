package gamedata

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/clock"
	"github.com/gamedata-go/gamedata/internal/clock/clocktest"
	"github.com/gamedata-go/gamedata/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// requestLog records the requests a test server received.
type requestLog struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r.Clone(r.Context()))
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

func (l *requestLog) all() []*http.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*http.Request(nil), l.reqs...)
}

// newServer starts a test server that logs every request before handing
// it to h, usually a twin's handler: it keeps whole requests, headers
// included, which the twin's own log (gamedatatest.Request) does not.
func newServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *requestLog) {
	t.Helper()
	log := &requestLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// newTwin starts a small twin (three packages, one server, one
// organization) with opts, closed when the test ends, and returns it with
// its server's id.
func newTwin(t *testing.T, opts ...gamedatatest.Option) (*gamedatatest.Server, string) {
	t.Helper()
	twin := gamedatatest.NewServer(append([]gamedatatest.Option{gamedatatest.WithSize(3, 1, 1)}, opts...)...)
	t.Cleanup(twin.Close)
	return twin, twin.Catalog().Servers[0].ID
}

// faults is fault injection of kind, on every request unless attempts
// limits it to the first attempts of each URL.
func faults(kind gamedatatest.Fault, attempts int) gamedatatest.Option {
	return gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{kind}, Attempts: attempts})
}

// replay returns a transport that answers requests under base from the
// fixtures of testdata/, with internal/fixture's replayer, and the log of
// the requests it was given. A request that no fixture answers fails the
// test: the SDK asked for something the test did not expect, such as a
// path without base's prefix.
func replay(t *testing.T, base string) (http.RoundTripper, *requestLog) {
	t.Helper()
	rep, err := fixture.NewReplayer("testdata", base)
	require.NoError(t, err)
	t.Cleanup(func() { assert.Empty(t, rep.Misses(), "requests no fixture answers") })
	log := &requestLog{}
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		log.add(r)
		return rep.RoundTrip(r)
	}), log
}

// newTestClient returns a client for baseURL with no client-side rate
// limit, whose waits take no time (sleepless), unless opts say otherwise:
// its retries wait the default backoff of seconds, or a Retry-After, in
// no wall time. The adaptive rate is off: it would turn the unlimited rate
// into a finite one at the first 429. It is the one test client of both
// test packages (gamedata_test calls it as NewTestClient).
func newTestClient(t testing.TB, baseURL string, opts ...Option) *Client {
	t.Helper()
	defaults := []Option{
		WithRateLimit(rate.Inf, 0),
		WithAdaptiveRate(false),
		withClock(sleepless{}),
	}
	c, err := NewClient(baseURL, append(defaults, opts...)...)
	require.NoError(t, err)
	return c
}

// timeField is f.Time(name); it stops the test when the member is not a
// time.
func timeField(t *testing.T, f Fields, name string) time.Time {
	t.Helper()
	v, ok := f.Time(name)
	require.True(t, ok, "member %q is a time", name)
	return v
}

// flaky is a small twin that answers the first failures requests of each
// URL with status and header, and its server's id: for the statuses and
// Retry-After values the twin's faults do not send (4xx, 501, 504, an
// HTTP date, garbage).
func flaky(t *testing.T, failures int, status int, header http.Header) (*gamedatatest.Server, string) {
	t.Helper()
	return newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{
		Rate: 1, Attempts: failures,
		Answer: gamedatatest.Respond(gamedatatest.Response{Status: status, Header: header, Body: []byte(`{"error":"try later"}`)}),
	}))
}

// sleepless is the wall's clock but for its sleeps, which return at once,
// as if the time had passed: the waits of a client (a backoff, a
// Retry-After, the rate limiter's) take no test time, while its stall
// timers and its cache's ages run on the wall, as a test that serves a
// stall or a fresh entry expects.
type sleepless struct{ clock.Real }

// Sleep returns at once, with ctx's error if it has ended.
func (sleepless) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// withClock runs a client on clk.
func withClock(clk clock.Clock) Option {
	return func(c *config) error {
		c.clock = clk
		return nil
	}
}

// fakeClock is the tests' fake clock (clocktest.Fake): its time moves
// only when a test advances it or sleeps on it. withClock runs a client
// on it.
type fakeClock = clocktest.Fake

func newFakeClock() *fakeClock { return clocktest.New() }

// stallSignals returns a handler that serves fi, and a channel that
// receives each time one of fi's answers of the stall fault kind starts to
// stall: a FaultStallHeaders answer once its request is in fi's log, a
// FaultStallBody answer once half its body is flushed. A test then moves
// its fake clock past the stall timeout, or ends a context, rather than
// wait on the wall. For any other kind nothing is ever sent.
func stallSignals(t testing.TB, fi *gamedatatest.FaultInjector, kind gamedatatest.Fault) (http.Handler, <-chan struct{}) {
	stalled := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	signal := func(done <-chan struct{}) {
		select {
		case stalled <- struct{}{}:
		case <-done:
		case <-ctx.Done():
		}
	}
	switch kind {
	case gamedatatest.FaultStallHeaders:
		go func() {
			for n := 1; fi.WaitRequests(ctx, n) == nil; n++ {
				if fi.Requests()[n-1].Fault == kind {
					signal(ctx.Done())
				}
			}
		}()
	case gamedatatest.FaultStallBody:
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fi.ServeHTTP(&flushHook{ResponseWriter: w, flushed: func() { signal(r.Context().Done()) }}, r)
		}), stalled
	}
	return fi, stalled
}

// flushHook is a ResponseWriter that calls flushed after each flush.
type flushHook struct {
	http.ResponseWriter
	flushed func()
}

func (w *flushHook) Flush() {
	http.NewResponseController(w.ResponseWriter).Flush()
	w.flushed()
}

func (w *flushHook) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// The helpers of the fuzz targets, which sit beside their units
// (FuzzActivityHistory in activity_decode_test.go, FuzzDecodePage in
// pagination_test.go, FuzzPathSegment in client_test.go). `go test` runs
// their f.Add seeds and the curated corpora in testdata/fuzz/<FuzzName>/;
// run one with
//
//	go test -run='^$' -fuzz='^FuzzActivityHistory$' -fuzztime=60s .

// fuzzNestingBomb is 100,000 unclosed brackets: a body that would exhaust
// the stack of a recursive decoder without a depth limit.
var fuzzNestingBomb = strings.Repeat("[", 100_000)

// fuzzFixture reads a fixture of testdata/ as a seed.
func fuzzFixture(f *testing.F, name string) []byte {
	f.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(f, err)
	return b
}

// fuzzObject decodes a JSON document that is an object, with numbers kept
// as json.Number, so a number too large for a float64 (which the decoders
// keep raw) does not make the check fail where the code under test
// succeeded. It returns false when b is not valid JSON or not an object.
func fuzzObject(b []byte) (map[string]any, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	return obj, ok
}

// fuzzAllocated returns the bytes the program allocated on the heap so
// far.
func fuzzAllocated() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// fuzzBigBody is the size from which a decoder's allocations are checked
// against the body's size: below it, the runtime's per-span accounting is
// too coarse for the check to be fair.
const fuzzBigBody = 64 << 10

// fuzzCheckAllocations fails when decoding a large body allocated more
// than 32 bytes per byte of body: a hostile body (a nesting bomb, a string
// full of brackets) must not turn into gigabytes of allocation.
func fuzzCheckAllocations(t *testing.T, what string, body []byte, decode func()) {
	t.Helper()
	if len(body) < fuzzBigBody {
		decode()
		return
	}
	before := fuzzAllocated()
	decode()
	if n := fuzzAllocated() - before; n > 32*uint64(len(body)) {
		t.Errorf("%s of a %d-byte body starting %q allocated %d bytes, more than 32 per byte of body", what, len(body), body[:64], n)
	}
}
