package gamedataotel

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/gamedata-go/gamedata"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/gamedata-go/gamedata/otel"

// Version is the version of this module, the instrumentation scope's
// version. The module is released with the library, at its version.
const Version = "0.2.0"

// Option configures New.
type Option func(*config)

type config struct {
	tracers    trace.TracerProvider
	meters     metric.MeterProvider
	propagator propagation.TextMapPropagator
}

// WithTracerProvider sets where spans go; the default is
// otel.GetTracerProvider().
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tracers = tp }
}

// WithMeterProvider sets where metrics go; the default is
// otel.GetMeterProvider().
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.meters = mp }
}

// WithPropagator sets how the trace context is written into each request;
// the default is otel.GetTextMapPropagator().
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) { c.propagator = p }
}

// Instrumentation is the spans and metrics of the calls of the clients it
// is given to. Give it to NewClient with ClientOptions, or compose its
// Hooks and Middleware with your own.
type Instrumentation struct {
	tracer     trace.Tracer
	propagator propagation.TextMapPropagator
	duration   metric.Float64Histogram
	cache      metric.Int64Counter
	throttled  metric.Int64Counter
}

// durationBuckets are the bucket boundaries, in seconds, that the HTTP
// semantic conventions advise for http.client.request.duration.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// New returns the instrumentation, or an error when the meter refuses
// one of its instruments.
func New(opts ...Option) (*Instrumentation, error) {
	cfg := config{}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.tracers == nil {
		cfg.tracers = otel.GetTracerProvider()
	}
	if cfg.meters == nil {
		cfg.meters = otel.GetMeterProvider()
	}
	if cfg.propagator == nil {
		cfg.propagator = otel.GetTextMapPropagator()
	}
	meter := cfg.meters.Meter(ScopeName, metric.WithInstrumentationVersion(Version))
	duration, err := meter.Float64Histogram("http.client.request.duration",
		metric.WithUnit("s"),
		metric.WithDescription("Duration of the SDK's calls that sent a request, retries included; a cache hit sends none and is counted in gamedata.client.cache only."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		return nil, err
	}
	cache, err := meter.Int64Counter("gamedata.client.cache",
		metric.WithUnit("{call}"),
		metric.WithDescription("Calls by how the client's cache took part: hit, revalidated, miss or off."))
	if err != nil {
		return nil, err
	}
	throttled, err := meter.Int64Counter("gamedata.client.throttled",
		metric.WithUnit("{response}"),
		metric.WithDescription("Responses by which the service throttled the client: 429, or 503 with Retry-After."))
	if err != nil {
		return nil, err
	}
	return &Instrumentation{
		tracer:     cfg.tracers.Tracer(ScopeName, trace.WithInstrumentationVersion(Version)),
		propagator: cfg.propagator,
		duration:   duration,
		cache:      cache,
		throttled:  throttled,
	}, nil
}

// ClientOptions are the options that instrument a client: its Hooks and
// its Middleware. WithHooks replaces any hooks given before it.
func (in *Instrumentation) ClientOptions() []gamedata.Option {
	return []gamedata.Option{gamedata.WithHooks(in.Hooks()), gamedata.WithMiddleware(in.Middleware)}
}

// Hooks start a span when a call starts and end it, with the call's
// outcome, when it ends; they count throttling and record the call's
// duration and cache outcome.
func (in *Instrumentation) Hooks() gamedata.Hooks {
	return gamedata.Hooks{OnStart: in.start, OnThrottle: in.throttle, OnDone: in.done}
}

func (in *Instrumentation) start(ctx context.Context, e gamedata.StartEvent) context.Context {
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", http.MethodGet),
		attribute.String("url.template", e.Route),
	}
	if u, err := url.Parse(e.URL); err == nil {
		attrs = append(attrs, attribute.String("server.address", u.Hostname()))
		if port, err := strconv.Atoi(u.Port()); err == nil {
			attrs = append(attrs, attribute.Int("server.port", port))
		}
	}
	ctx, _ = in.tracer.Start(ctx, http.MethodGet+" "+e.Route, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

func (in *Instrumentation) throttle(ctx context.Context, e gamedata.ThrottleEvent) {
	in.throttled.Add(ctx, 1, metric.WithAttributes(
		attribute.String("url.template", e.Route),
		attribute.Int("http.response.status_code", e.StatusCode)))
}

func (in *Instrumentation) done(ctx context.Context, e gamedata.DoneEvent) {
	r := e.Response
	attrs := []attribute.KeyValue{
		attribute.String("gamedata.cache.status", r.Cache.String()),
		attribute.Int("gamedata.attempts", r.Attempts),
		attribute.Float64("gamedata.rate_limit.wait", r.RateLimitWait.Seconds()),
	}
	if r.StatusCode > 0 {
		attrs = append(attrs, attribute.Int("http.response.status_code", r.StatusCode))
	}
	if r.Attempts > 1 {
		attrs = append(attrs, attribute.Int("http.request.resend_count", r.Attempts-1))
	}
	errType := errorType(e.Err)
	if errType != "" {
		attrs = append(attrs, attribute.String("error.type", errType))
	}
	span := trace.SpanFromContext(ctx)
	span.SetAttributes(attrs...)
	if e.Err != nil {
		span.SetStatus(codes.Error, errType)
	}
	span.End()

	route := attribute.String("url.template", e.Route)
	metricAttrs := []attribute.KeyValue{attribute.String("http.request.method", http.MethodGet), route}
	if r.StatusCode > 0 {
		metricAttrs = append(metricAttrs, attribute.Int("http.response.status_code", r.StatusCode))
	}
	if errType != "" {
		metricAttrs = append(metricAttrs, attribute.String("error.type", errType))
	}
	if r.Attempts > 0 {
		// http.client.request.duration measures HTTP requests, and a
		// cache hit sent none.
		in.duration.Record(ctx, r.Duration.Seconds(), metric.WithAttributes(metricAttrs...))
	}
	in.cache.Add(ctx, 1, metric.WithAttributes(route, attribute.String("gamedata.cache.status", r.Cache.String())))
}

// errorType is the error.type of a failed call: its status code when the
// service answered with an error, else a low-cardinality name for the
// failure, never the error's text, which may carry what the service sent.
func errorType(err error) string {
	var apiErr *gamedata.APIError
	var netErr net.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &apiErr):
		return strconv.Itoa(apiErr.StatusCode)
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, gamedata.ErrInvalidArgument):
		return "invalid_argument"
	case errors.Is(err, gamedata.ErrPageOutOfRange):
		return "page_out_of_range"
	case errors.Is(err, gamedata.ErrResponseTooLarge):
		return "response_too_large"
	case errors.As(err, new(*gamedata.DecodeError)):
		return "decode"
	case errors.As(err, &netErr):
		return "network"
	}
	return "_OTHER"
}

// Middleware writes the trace context of the call's span into each
// attempt's request and adds an event to the span for each attempt, with
// its number and its status or the kind of its failure.
func (in *Instrumentation) Middleware(req *http.Request, next gamedata.Next) (*http.Response, error) {
	ctx := req.Context()
	req = req.Clone(ctx) // a middleware must not change the request it was given
	in.propagator.Inject(ctx, propagation.HeaderCarrier(req.Header))
	resp, err := next.RoundTrip(req)
	attrs := []attribute.KeyValue{attribute.Int("gamedata.attempt", next.Attempt())}
	switch {
	case err != nil:
		attrs = append(attrs, attribute.String("error.type", errorType(err)))
	default:
		attrs = append(attrs, attribute.Int("http.response.status_code", resp.StatusCode))
	}
	trace.SpanFromContext(ctx).AddEvent("attempt", trace.WithAttributes(attrs...))
	return resp, err
}
