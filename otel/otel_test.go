package gamedataotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	gamedataotel "github.com/gamedata-go/gamedata/otel"
)

const route = "/api/packages/{kind}/{ident}"

// setup starts a twin whose package records may be cached for a minute,
// behind gamedatatest.InjectFaults with f, and an instrumented client of
// it recording into memory. The twin is wrapped to keep each request's
// traceparent header: the twin does not log headers.
func setup(t *testing.T, f gamedatatest.Faults) (*gamedata.Client, *tracetest.SpanRecorder, *sdkmetric.ManualReader, *traceparents) {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=60"}))
	t.Cleanup(twin.Close)
	seen := &traceparents{}
	fi := gamedatatest.InjectFaults(twin.Handler(), f)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.add(r.Header.Get("Traceparent"))
		fi.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(fi.Close)

	spans := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	in, err := gamedataotel.New(
		gamedataotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))),
		gamedataotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		gamedataotel.WithPropagator(propagation.TraceContext{}))
	require.NoError(t, err)
	c, err := gamedata.NewClient(srv.URL, append(in.ClientOptions(),
		gamedata.WithRateLimit(rate.Inf, 0), gamedata.WithBackoff(time.Millisecond, 10*time.Millisecond))...)
	require.NoError(t, err)
	return c, spans, reader, seen
}

type traceparents struct {
	mu  sync.Mutex
	ids []string
}

func (tp *traceparents) add(s string) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	tp.ids = append(tp.ids, s)
}

func (tp *traceparents) all() []string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]string(nil), tp.ids...)
}

func attrs(kvs []attribute.KeyValue) map[string]any {
	m := map[string]any{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

// A retried call is one span, named by its route template, with an
// event for each attempt; a cache hit is a span with no attempt; each
// request carries the span's trace context.
func TestSpans(t *testing.T) {
	c, spans, _, seen := setup(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	for range 2 {
		_, err := c.Packages.Get(context.Background(), gamedata.KindGame, "1337")
		require.NoError(t, err)
	}
	ended := spans.Ended()
	require.Len(t, ended, 2)
	for _, s := range ended {
		assert.Equal(t, "GET "+route, s.Name(), "the route template, never the path")
		assert.Equal(t, gamedataotel.ScopeName, s.InstrumentationScope().Name)
		assert.Equal(t, gamedataotel.Version, s.InstrumentationScope().Version)
	}
	retried, hit := attrs(ended[0].Attributes()), attrs(ended[1].Attributes())
	assert.Equal(t, "GET", retried["http.request.method"])
	assert.Equal(t, route, retried["url.template"])
	assert.Equal(t, "127.0.0.1", retried["server.address"])
	assert.Equal(t, int64(200), retried["http.response.status_code"])
	assert.Equal(t, int64(2), retried["gamedata.attempts"])
	assert.Equal(t, int64(1), retried["http.request.resend_count"])
	assert.Equal(t, "miss", retried["gamedata.cache.status"])
	assert.Contains(t, retried, "gamedata.rate_limit.wait")
	assert.NotContains(t, retried, "error.type")
	require.Len(t, ended[0].Events(), 2, "an event an attempt")
	assert.Equal(t, int64(503), attrs(ended[0].Events()[0].Attributes)["http.response.status_code"])
	assert.Equal(t, int64(2), attrs(ended[0].Events()[1].Attributes)["gamedata.attempt"])

	assert.Equal(t, "hit", hit["gamedata.cache.status"])
	assert.Equal(t, int64(0), hit["gamedata.attempts"])
	assert.Empty(t, ended[1].Events(), "a fresh hit sends nothing")

	ids := seen.all()
	require.Len(t, ids, 2)
	for _, id := range ids {
		assert.Contains(t, id, ended[0].SpanContext().TraceID().String(), "the request carries the call's trace")
	}
}

// A failed call's span says so, with a low-cardinality error.type.
func TestSpanOfAFailure(t *testing.T) {
	c, spans, _, _ := setup(t, gamedatatest.Faults{})
	_, err := c.Packages.Get(context.Background(), gamedata.KindGame, "no-such-package")
	require.ErrorIs(t, err, gamedata.ErrNotFound)
	ended := spans.Ended()
	require.Len(t, ended, 1)
	assert.Equal(t, codes.Error, ended[0].Status().Code)
	assert.Equal(t, "404", attrs(ended[0].Attributes())["error.type"])
}

// The duration histogram and the cache and throttling counters are
// labelled by route template, never by path.
func TestMetrics(t *testing.T) {
	c, _, reader, _ := setup(t, gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault429}, Attempts: 1})
	for _, ident := range []string{"1337", "1337", "hello.world"} {
		_, err := c.Packages.Get(context.Background(), gamedata.KindGame, ident)
		require.NoError(t, err)
	}
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	got := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		assert.Equal(t, gamedataotel.ScopeName, sm.Scope.Name)
		assert.Equal(t, gamedataotel.Version, sm.Scope.Version)
		for _, m := range sm.Metrics {
			got[m.Name] = m.Data
		}
	}
	hist, ok := got["http.client.request.duration"].(metricdata.Histogram[float64])
	require.True(t, ok, "the duration histogram")
	require.Len(t, hist.DataPoints, 1, "one series: the route template, whatever the ident")
	assert.Equal(t, uint64(2), hist.DataPoints[0].Count, "the two calls that sent requests; the hit sent none")
	tmpl, _ := hist.DataPoints[0].Attributes.Value("url.template")
	assert.Equal(t, route, tmpl.AsString())
	assert.Equal(t, []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}, hist.DataPoints[0].Bounds)

	cache, ok := got["gamedata.client.cache"].(metricdata.Sum[int64])
	require.True(t, ok)
	byStatus := map[string]int64{}
	for _, dp := range cache.DataPoints {
		s, _ := dp.Attributes.Value("gamedata.cache.status")
		byStatus[s.AsString()] = dp.Value
	}
	assert.Equal(t, map[string]int64{"miss": 2, "hit": 1}, byStatus)

	throttled, ok := got["gamedata.client.throttled"].(metricdata.Sum[int64])
	require.True(t, ok)
	require.Len(t, throttled.DataPoints, 1)
	assert.Equal(t, int64(2), throttled.DataPoints[0].Value, "each URL's first request was a 429")
}

// The module is released with the library, at its version.
func TestVersionIsTheLibrarys(t *testing.T) {
	assert.Equal(t, gamedata.Version, gamedataotel.Version)
}
