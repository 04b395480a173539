package gamedata

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// trace is a log of what middleware saw, safe for GetMany's workers.
type trace struct {
	mu    sync.Mutex
	lines []string
}

func (tr *trace) add(s string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, s)
}

func (tr *trace) all() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.lines...)
}

// named is a middleware that logs its name on the way in and out.
func named(tr *trace, name string) Middleware {
	return func(req *http.Request, next Next) (*http.Response, error) {
		tr.add(name + ">")
		resp, err := next.RoundTrip(req)
		tr.add("<" + name)
		return resp, err
	}
}

// The client's middleware run outside the call's, each list in the order
// given, the first outermost.
func TestMiddlewareOrder(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{})
	ref := firstPackage(twin)
	tr := &trace{}
	c := newTestClient(t, url, WithMiddleware(named(tr, "A"), named(tr, "B")))
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithCallMiddleware(named(tr, "C"), named(tr, "D")))
	require.NoError(t, err)
	assert.Equal(t, []string{"A>", "B>", "C>", "D>", "<D", "<C", "<B", "<A"}, tr.all())
}

// Every attempt passes the middleware, which knows the call's route
// template and the attempt's number.
func TestMiddlewareSeesEveryAttempt(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500, gamedatatest.FaultReset}, Attempts: 2})
	ref := firstPackage(twin)
	tr := &trace{}
	c := newTestClient(t, url, WithMiddleware(func(req *http.Request, next Next) (*http.Response, error) {
		tr.add(next.Route() + " " + string(rune('0'+next.Attempt())))
		return next.RoundTrip(req)
	}))
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
	require.NoError(t, err)
	route := "/api/packages/{kind}/{ident}"
	assert.Equal(t, []string{route + " 1", route + " 2", route + " 3"}, tr.all())
}

// A fresh cache hit sends no attempt, so no middleware sees it.
func TestMiddlewareDoesNotSeeAFreshHit(t *testing.T) {
	t.Parallel()
	_, srv, _, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
	tr := &trace{}
	c := cachingClient(t, srv.URL, newFakeClock(), WithMiddleware(named(tr, "A")))
	getTestRecord(t, c, ref)
	getTestRecord(t, c, ref)
	assert.Equal(t, []string{"A>", "<A"}, tr.all())
}

// An attempt has waited on the rate limiter before it reaches the first
// middleware.
func TestMiddlewareRunsAfterTheLimiter(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{})
	ref := firstPackage(twin)
	clk := newFakeClock()
	start := clk.Now()
	var seen []time.Duration
	c := newTestClient(t, url, withClock(clk), WithCache(nil), WithRateLimit(rate.Every(time.Second), 1),
		WithMiddleware(func(req *http.Request, next Next) (*http.Response, error) {
			seen = append(seen, clk.Now().Sub(start))
			return next.RoundTrip(req)
		}))
	for range 2 {
		_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
		require.NoError(t, err)
	}
	assert.Equal(t, []time.Duration{0, time.Second}, seen)
}

// A middleware may answer itself; its answer is retried, decoded and
// cached like the service's. One that answers nothing is an error.
func TestMiddlewareMayAnswer(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{})
	ref := firstPackage(twin)
	calls := 0
	unavailable := func(req *http.Request, next Next) (*http.Response, error) {
		if calls++; calls == 1 {
			return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
		}
		return next.RoundTrip(req)
	}
	c := newTestClient(t, url)
	var r Response
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithCallMiddleware(unavailable), WithResponseInto(&r))
	require.NoError(t, err)
	assert.Equal(t, 2, r.Attempts, "the middleware's 503 was retried")

	nothing := func(*http.Request, Next) (*http.Response, error) { return nil, nil }
	_, err = c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithCallMiddleware(nothing), WithCallRetries(0))
	assert.ErrorContains(t, err, "neither a response nor an error")

	// As net/http's client does, a nil Body is an empty one, unless the
	// response says it has bytes.
	for _, tt := range []struct {
		status int
		length int64
		says   string
	}{
		{http.StatusOK, 0, "empty response body"},
		{http.StatusOK, -1, "empty response body"},
		{http.StatusNotFound, 0, "404"},
		{http.StatusOK, 10, "nil Body and Content-Length 10"},
	} {
		noBody := func(req *http.Request, _ Next) (*http.Response, error) {
			return &http.Response{StatusCode: tt.status, ContentLength: tt.length, Header: http.Header{}, Request: req}, nil
		}
		_, err = c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithCallMiddleware(noBody), WithCallRetries(0))
		assert.ErrorContains(t, err, tt.says)
	}
}

func TestNilMiddlewareIsRefused(t *testing.T) {
	t.Parallel()
	_, err := NewClient("https://example.com", WithMiddleware(nil))
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

// The hooks see retries, throttling and how each call ended.
func TestHooks(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault429}, Attempts: 1},
		gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=60"}))
	ref := firstPackage(twin)
	var retries []RetryEvent
	var throttles []ThrottleEvent
	var done []DoneEvent
	c := newTestClient(t, url, withClock(newFakeClock()), WithHooks(Hooks{
		OnRetry:    func(_ context.Context, e RetryEvent) { retries = append(retries, e) },
		OnThrottle: func(_ context.Context, e ThrottleEvent) { throttles = append(throttles, e) },
		OnDone:     func(_ context.Context, e DoneEvent) { done = append(done, e) },
	}))
	for range 2 {
		_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
		require.NoError(t, err)
	}
	route := "/api/packages/{kind}/{ident}"
	require.Len(t, retries, 1)
	assert.Equal(t, RetryEvent{Route: route, Attempt: 1, StatusCode: 429, Wait: retries[0].Wait}, retries[0])
	assert.LessOrEqual(t, retries[0].Wait, defaultConfig().backoffMin, "the first backoff: half of the minimum to the minimum")
	assert.Equal(t, []ThrottleEvent{{Route: route, Attempt: 1, StatusCode: 429}}, throttles)
	require.Len(t, done, 2)
	assert.Equal(t, CacheMiss, done[0].Response.Cache)
	assert.Equal(t, 2, done[0].Response.Attempts)
	assert.Equal(t, CacheHit, done[1].Response.Cache, "the hook sees the hit no middleware sees")
	for _, e := range done {
		assert.Equal(t, route, e.Route)
		assert.NoError(t, e.Err)
	}
	assert.True(t, strings.HasPrefix(done[1].Response.Header.Get("Cache-Control"), "max-age"))
}

// startKey is the context key of TestHooksOnStartContext's value.
type startKey struct{}

// The context OnStart returns is the call's: every attempt's request
// carries it, and the other hooks receive it.
func TestHooksOnStartContext(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	ref := firstPackage(twin)
	var seen []string
	c := newTestClient(t, url, WithHooks(Hooks{
		OnStart: func(ctx context.Context, e StartEvent) context.Context {
			seen = append(seen, "start "+e.Route+" "+strings.TrimPrefix(e.URL, url))
			return context.WithValue(ctx, startKey{}, "call-1")
		},
		OnRetry: func(ctx context.Context, _ RetryEvent) { seen = append(seen, "retry "+ctx.Value(startKey{}).(string)) },
		OnThrottle: func(ctx context.Context, _ ThrottleEvent) {
			seen = append(seen, "throttle "+ctx.Value(startKey{}).(string))
		},
		OnDone: func(ctx context.Context, _ DoneEvent) { seen = append(seen, "done "+ctx.Value(startKey{}).(string)) },
	}), WithMiddleware(func(req *http.Request, next Next) (*http.Response, error) {
		seen = append(seen, "attempt "+req.Context().Value(startKey{}).(string))
		return next.RoundTrip(req)
	}))
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"start /api/packages/{kind}/{ident} /api/packages/" + ref.Kind + "/" + ref.Ident,
		"attempt call-1", "retry call-1", "attempt call-1", "done call-1",
	}, seen, "a 503 without Retry-After is not a throttle")
}

// recordedLog is a slog.Handler that keeps every record it is given.
type recordedLog struct {
	mu      sync.Mutex
	records []slog.Record
}

func (*recordedLog) Enabled(context.Context, slog.Level) bool { return true }
func (h *recordedLog) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.records = append(h.records, r.Clone())
	return nil
}
func (h *recordedLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordedLog) WithGroup(string) slog.Handler      { return h }

func (h *recordedLog) all() []slog.Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.records)
}

// A logger at debug level sees exactly one line an attempt, retried or
// not, at debug level, with the route template, its number, status or
// error, cache status and duration: no line of the retry engine's own,
// no URL, no body, and nothing the service chose that the sanitizer would
// take out.
func TestDebugLogAnAttemptALine(t *testing.T) {
	t.Parallel()
	redirect := func(target string) func(http.ResponseWriter, *http.Request, gamedatatest.Response) {
		return gamedatatest.Respond(gamedatatest.Response{Status: http.StatusFound, Header: http.Header{"Location": {target}}})
	}
	for _, tt := range []struct {
		name   string
		faults gamedatatest.Faults
		want   []string // what each attempt's line holds, in order
	}{
		{"a 503, then the record", gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1},
			[]string{"attempt=1 status=503 cache=miss", "attempt=2 status=200 cache=miss"}},
		{"two resets, then the record", gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultReset}, Attempts: 2},
			[]string{"attempt=1 error=", "attempt=2 error=", "attempt=3 status=200"}},
		{"a redirect elsewhere, named by the service", gamedatatest.Faults{Rate: 1, Answer: redirect("https://elsewhere.example/\u202eevil\u200b\u009b2J\u2066")},
			[]string{"attempt=1 status=302"}},
		// net/http refuses the header and quotes it raw in its error;
		// the attempt is retried as a broken connection.
		{"a malformed redirect, retried", gamedatatest.Faults{Rate: 1, Answer: redirect("/" + hostileName), Attempts: 1},
			[]string{"attempt=1 error=", "attempt=2 status=200"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin, url := faultyTwin(t, tt.faults)
			ref := firstPackage(twin)
			h := &recordedLog{}
			c := newTestClient(t, url, WithLogger(slog.New(h)))
			var r Response
			p, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithResponseInto(&r))
			records := h.all()
			require.Len(t, records, len(tt.want), "a line an attempt, and no other")
			assert.Equal(t, r.Attempts, len(records))
			for i, rec := range records {
				assert.Equal(t, slog.LevelDebug, rec.Level, "no line above debug")
				assert.Equal(t, "gamedata: attempt", rec.Message)
				var line strings.Builder
				rec.Attrs(func(a slog.Attr) bool {
					v := a.Value.String()
					shownSafely(t, v, "attribute "+a.Key)
					assert.NotContains(t, v, ref.Ident, "no URL")
					fmt.Fprintf(&line, "%s=%s ", a.Key, v)
					return true
				})
				assert.Contains(t, line.String(), "method=GET route=/api/packages/{kind}/{ident} "+tt.want[i])
				assert.Contains(t, line.String(), "duration=")
			}
			if err == nil {
				title, _ := p.Text("title")
				for _, rec := range records {
					rec.Attrs(func(a slog.Attr) bool {
						assert.NotContains(t, a.Value.String(), title.Unsanitized(), "no body is logged")
						return true
					})
				}
			}
		})
	}
}
