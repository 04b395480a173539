package gamedata

import (
	"context"
	"net/http"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every method that reads the service takes call options last.
func TestEveryCallTakesCallOptions(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "https://example.com")
	methods := 0
	check := func(name string, m reflect.Type) {
		if m.NumIn() == 0 || m.In(0) != reflect.TypeFor[context.Context]() {
			return
		}
		methods++
		assert.True(t, m.IsVariadic() && m.In(m.NumIn()-1) == reflect.TypeFor[[]CallOption](), "%s takes ...CallOption last", name)
	}
	cv := reflect.ValueOf(c)
	for i := range cv.NumMethod() {
		check(cv.Type().Method(i).Name, cv.Method(i).Type())
	}
	for i := range cv.Elem().NumField() {
		f := cv.Elem().Type().Field(i)
		if f.IsExported() && f.Type.Kind() == reflect.Pointer {
			svc := cv.Elem().Field(i)
			for j := range svc.NumMethod() {
				check(f.Name+"."+svc.Type().Method(j).Name, svc.Method(j).Type())
			}
		}
	}
	assert.Equal(t, 17, methods, "the calls of the API")
}

func TestWithCallRetries(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	pkgs := twin.Catalog().Packages
	c := newTestClient(t, url) // 4 retries by default
	var r Response
	_, err := c.Packages.Get(context.Background(), pkgs[0].Kind, pkgs[0].Ident, WithCallRetries(0), WithResponseInto(&r))
	assert.ErrorContains(t, err, "503")
	assert.Equal(t, 1, r.Attempts, "one attempt only")
	_, err = c.Packages.Get(context.Background(), pkgs[1].Kind, pkgs[1].Ident, WithResponseInto(&r))
	assert.NoError(t, err)
	assert.Equal(t, 2, r.Attempts, "the next call retries as the client says")
}

func TestWithAttemptTimeout(t *testing.T) {
	t.Parallel()
	twin, url := faultyTwin(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders}})
	ref := firstPackage(twin)
	// The stall lasts until the client goes away, so only the attempt's
	// timeout can end the call; the stall timeout is off.
	c := newTestClient(t, url, WithStallTimeout(0))
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithAttemptTimeout(time.Millisecond), WithCallRetries(1))
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorContains(t, err, "after 2 attempts")
}

func TestWithHeader(t *testing.T) {
	t.Parallel()
	_, srv, log, ref := cacheTwin(t, gamedatatest.DefaultCachePolicy, nil)
	c := newTestClient(t, srv.URL, WithCache(nil))
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithHeader("x-trace", "a"), WithHeader("X-Trace", "b"), WithHeader("User-Agent", "mine/1"))
	require.NoError(t, err)
	_, err = c.Packages.Get(context.Background(), ref.Kind, ref.Ident)
	require.NoError(t, err)
	reqs := log.all()
	require.Len(t, reqs, 2)
	assert.Equal(t, []string{"a", "b"}, reqs[0].Header.Values("X-Trace"))
	assert.Equal(t, "mine/1", reqs[0].UserAgent(), "a call's header replaces the client's")
	assert.Empty(t, reqs[1].Header.Values("X-Trace"), "only for the call that asked")
}

func TestWithQuery(t *testing.T) {
	t.Parallel()
	_, srv, log, ref := cacheTwin(t, gamedatatest.DefaultCachePolicy, nil)
	c := newTestClient(t, srv.URL)
	_, err := c.Packages.Get(context.Background(), ref.Kind, ref.Ident, WithQuery("lang", "en"), WithQuery("lang", "de"))
	require.NoError(t, err)
	_, err = c.Dashboard.List(context.Background(), nil, WithQuery("page", "3"))
	assert.ErrorIs(t, err, ErrInvalidArgument, "the call sends page itself")
	assert.ErrorContains(t, err, `"page"`)
	reqs := log.all()
	require.Len(t, reqs, 1, "a refused call sends nothing")
	assert.Equal(t, []string{"en", "de"}, reqs[0].URL.Query()["lang"])
}

func TestWithCacheMode(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name        string
		ctx         func(context.Context) context.Context
		opts        []CallOption
		conditional bool // the second call is a conditional request
		sent        bool // the second call sends a request at all
	}{
		{"default serves a fresh entry", nil, nil, false, false},
		{"revalidate asks whatever the freshness", nil, []CallOption{WithCacheMode(CacheRevalidate)}, true, true},
		{"skip sends a full request", nil, []CallOption{WithCacheMode(CacheSkip)}, false, true},
		{"SkipCache still works", SkipCache, nil, false, true},
		{"the option wins over SkipCache", SkipCache, []CallOption{WithCacheMode(CacheDefault)}, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, srv, log, ref := cacheTwin(t, gamedatatest.CachePolicy{CacheControl: "max-age=60"}, nil)
			c := cachingClient(t, srv.URL, newFakeClock())
			getTestRecord(t, c, ref)
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx(ctx)
			}
			_, err := c.Packages.Get(ctx, ref.Kind, ref.Ident, tt.opts...)
			require.NoError(t, err)
			reqs := log.all()
			if !tt.sent {
				assert.Len(t, reqs, 1)
				return
			}
			require.Len(t, reqs, 2)
			assert.Equal(t, tt.conditional, reqs[1].Header.Get("If-None-Match") != "")
		})
	}
}

// A bad call option fails the call with ErrInvalidArgument before
// anything is sent, for a call, a walk, a fan-out and a watch alike.
func TestBadCallOptionsAreRefused(t *testing.T) {
	t.Parallel()
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	for _, tt := range []struct {
		opt  CallOption
		says string
	}{
		{WithCallRetries(-1), "WithCallRetries"},
		{WithAttemptTimeout(0), "WithAttemptTimeout"},
		{WithHeader("If-None-Match", "x"), "belongs to the client"},
		{WithHeader("host", "x"), "belongs to the client"},
		{WithHeader("", "x"), "empty header name"},
		{WithHeader("X Trace", "x"), `header name "X Trace" has ' '`},
		{WithHeader("X-Trace:", "x"), `has ':'`},
		{WithHeader("X-Trace\r\nHost", "x"), `has '\r'`},
		{WithHeader("X-Trace\n", "x"), `has '\n'`},
		{WithHeader("X-Tracé", "x"), "header name"},
		{WithHeader("Authorization", "Bearer s3cret\r\nX-Evil: 1"), "the value of Authorization has a control character at byte 13"},
		{WithHeader("X-Trace", "a\nb"), "control character"},
		{WithHeader("X-Trace", "a\x00b"), "control character"},
		{WithHeader("X-Trace", "a\x7fb"), "control character"},
		{WithQuery("", "x"), "empty parameter name"},
		{WithCacheMode(7), "unknown mode"},
		{WithResponseInto(nil), "nil *Response"},
		{WithCallMiddleware(nil), "nil Middleware"},
	} {
		_, err := c.Servers.Get(ctx, "s1", tt.opt)
		assert.ErrorIs(t, err, ErrInvalidArgument, tt.says)
		assert.ErrorContains(t, err, tt.says)
		assert.NotContains(t, err.Error(), "s3cret", "a header's value may be a credential: never quoted")
		for _, err := range c.Dashboard.All(ctx, nil, nil, tt.opt) {
			assert.ErrorIs(t, err, ErrInvalidArgument, "All: %s", tt.says)
		}
		for _, err := range c.Servers.GetMany(ctx, []string{"s1"}, 1, tt.opt) {
			assert.ErrorIs(t, err, ErrInvalidArgument, "GetMany: %s", tt.says)
		}
		for _, err := range c.Packages.Watch(ctx, []PackageRef{{KindGame, "x"}}, time.Minute, tt.opt) {
			assert.ErrorIs(t, err, ErrInvalidArgument, "Watch: %s", tt.says)
			break
		}
	}
	assert.Empty(t, twin.Requests(), "nothing was sent")
}

// BenchmarkCallOptions is a Packages.Get of a record the static server
// sends without caching headers (a full request) and of one it allows to
// be cached for an hour (a fresh hit), without call options or
// middleware ("baseline=none"), and with them in use: WithResponseInto,
// and a middleware that passes every attempt on. Compare the baseline with
// BenchmarkPackageGet of the tree before per-call options for their cost
// when unused.
func BenchmarkCallOptions(b *testing.B) {
	body, err := os.ReadFile("testdata/package.json")
	if err != nil {
		b.Fatal(err)
	}
	pass := func(req *http.Request, next Next) (*http.Response, error) { return next.RoundTrip(req) }
	for _, server := range []struct {
		name         string
		cacheControl string
	}{{"request", ""}, {"fresh-hit", "max-age=3600"}} {
		srv := staticServer(b, body, server.cacheControl)
		for _, tt := range []struct {
			name   string
			client []Option
			call   func(*Response) []CallOption
		}{
			{"baseline=none", nil, func(*Response) []CallOption { return nil }},
			{"response-into", nil, func(r *Response) []CallOption { return []CallOption{WithResponseInto(r)} }},
			{"middleware", []Option{WithMiddleware(pass)}, func(*Response) []CallOption { return nil }},
		} {
			b.Run(server.name+"/"+tt.name, func(b *testing.B) {
				c := benchClient(b, srv.URL, tt.client...)
				var r Response
				opts := tt.call(&r)
				b.ReportAllocs()
				for b.Loop() {
					p, err := c.Packages.Get(context.Background(), KindGame, "space-miner", opts...)
					if err != nil || p.Ident != "space-miner" {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
