package gamedata

import (
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/internal/attempt"
	"github.com/gamedata-go/gamedata/internal/clock"
)

// Version is the version of this module, sent in the default User-Agent.
const Version = "0.2.0"

// Option configures a Client. An option given a bad value makes NewClient
// return an error; none of them makes a network call.
type Option func(*config) error

type config struct {
	httpClient       *http.Client
	retryMax         int
	backoffMin       time.Duration
	backoffMax       time.Duration
	rateLimit        rate.Limit
	rateBurst        int
	userAgent        string
	logger           *slog.Logger
	maxResponseBytes int64
	prefetch         int
	adaptiveRate     bool
	stallTimeout     time.Duration
	clock            clock.Clock
	cache            Cache
	middleware       []Middleware
	hooks            Hooks
}

func defaultConfig() config {
	return config{
		retryMax:         4,
		backoffMin:       500 * time.Millisecond,
		backoffMax:       30 * time.Second,
		rateLimit:        5,
		rateBurst:        1,
		userAgent:        "gamedata-go/" + Version,
		maxResponseBytes: 32 << 20,
		prefetch:         1,
		adaptiveRate:     true,
		stallTimeout:     30 * time.Second,
		clock:            clock.Real{},
		cache:            NewMemoryCache(32 << 20),
	}
}

// WithHTTPClient sets the http.Client whose Transport, Jar and Timeout
// carry the requests, underneath the client's retries, rate limiter and
// redirect policy. Its CheckRedirect, if any, is consulted after the
// client's own policy allows a redirect. The default is a client over
// http.DefaultTransport.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return invalidArgument("WithHTTPClient: nil *http.Client")
		}
		c.httpClient = hc
		return nil
	}
}

// WithRetryMax sets how many times a failed request is retried: network
// errors, 429 and 5xx other than 501. The default is 4; 0 turns retries
// off.
func WithRetryMax(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalidArgument("WithRetryMax: %d retries, want 0 or more", n)
		}
		c.retryMax = n
		return nil
	}
}

// WithBackoff sets the bounds of the exponential backoff, with jitter,
// between retries. The default is 500ms to 30s. A Retry-After above max
// fails the call at once with an *APIError that carries the wait.
func WithBackoff(min, max time.Duration) Option {
	return func(c *config) error {
		if min < 0 || max < min {
			return invalidArgument("WithBackoff: min %s, max %s, want 0 <= min <= max", min, max)
		}
		c.backoffMin, c.backoffMax = min, max
		return nil
	}
}

// WithRateLimit sets the client-side rate limit that every request, every
// retry and every redirect waits on, shared by all goroutines using the
// client: a token bucket that refills at r tokens a second and holds at
// most burst, so in any window of t seconds the client sends at most
// burst + r·t requests. WithRateLimit(20, 20) therefore allows 39 in the
// first second, then 20 a second; to stay at about 20 in every second,
// give a burst of 1. The default is 5 requests a second with a burst of 1:
// the service publishes no limit, and a client that does not know one
// keeps well below any plausible one. At the default, a job of N
// requests takes about N/5 seconds whatever its concurrency (GetMany's
// workers share the limit). rate.Inf removes the ceiling. Unless
// WithAdaptiveRate(false) is given, r is a ceiling: the client lowers its
// rate when the service throttles it and raises it back when the service
// stops, so even with rate.Inf a throttled client slows down.
func WithRateLimit(r rate.Limit, burst int) Option {
	return func(c *config) error {
		if r != rate.Inf && (r <= 0 || burst < 1) {
			return invalidArgument("WithRateLimit: rate %v, burst %d, want rate > 0 and burst >= 1, or rate.Inf", r, burst)
		}
		c.rateLimit, c.rateBurst = r, burst
		return nil
	}
}

// WithUserAgent sets the User-Agent header. The default is
// "gamedata-go/" followed by Version.
func WithUserAgent(ua string) Option {
	return func(c *config) error {
		if ua == "" {
			return invalidArgument("WithUserAgent: empty user agent")
		}
		if err := attempt.CheckHeader("User-Agent", ua); err != nil {
			return invalidArgument("WithUserAgent: %v", err)
		}
		c.userAgent = ua
		return nil
	}
}

// WithLogger sets the logger of the client's debug lines; it logs nothing
// above debug level, since every failure is returned to the caller. Each
// attempt is one line, "gamedata: attempt", with its method, route
// template, attempt number, status (or sanitized error), cache status,
// duration and rate-limit wait; a change of the adaptive rate
// (WithAdaptiveRate) is a line "gamedata: client rate adjusted". A body,
// a URL and a header are never logged. By default the client logs
// nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		c.logger = l
		return nil
	}
}

// WithMaxResponseBytes bounds a response body. A larger body fails with
// ErrResponseTooLarge; it is never decoded in part. The default is 32 MiB.
func WithMaxResponseBytes(n int64) Option {
	return func(c *config) error {
		if n <= 0 {
			return invalidArgument("WithMaxResponseBytes: %d bytes, want more than 0", n)
		}
		c.maxResponseBytes = n
		return nil
	}
}

// WithPrefetch sets how many pages a directory walk (All) fetches ahead of
// the caller, so the next page is on the wire while the caller works on
// this one. The default is 1; 0 fetches each page only when it is needed.
// Prefetched pages wait on the rate limiter like any request, and breaking
// out of the walk cancels them.
func WithPrefetch(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return invalidArgument("WithPrefetch: %d pages, want 0 or more", n)
		}
		c.prefetch = n
		return nil
	}
}

// WithAdaptiveRate turns the learning of the service's rate limit on or
// off. On, the default, each throttling response (429, or 503 with
// Retry-After) lowers the client's rate and quiet periods raise it back
// towards the WithRateLimit ceiling; Client.Stats shows the rate in force.
// Off, the client keeps the configured rate whatever the service says.
// Retry-After decides the wait before a retry either way.
func WithAdaptiveRate(on bool) Option {
	return func(c *config) error {
		c.adaptiveRate = on
		return nil
	}
}

// WithStallTimeout sets how long an attempt may receive nothing, neither
// the response headers nor new body bytes, before it is abandoned and
// retried like a reset connection. It bounds silence, not the whole call:
// a large body over a slow link succeeds as long as bytes keep coming. The
// error after the last attempt says that the connection stalled, and
// matches os.ErrDeadlineExceeded. The default is 30s; 0 turns it off.
func WithStallTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return invalidArgument("WithStallTimeout: %s, want 0 (off) or more", d)
		}
		c.stallTimeout = d
		return nil
	}
}

// WithMiddleware adds middleware that every attempt of every call passes,
// outside the call's own (see Middleware for the order).
func WithMiddleware(mw ...Middleware) Option {
	return func(c *config) error {
		for _, m := range mw {
			if m == nil {
				return invalidArgument("WithMiddleware: nil Middleware")
			}
		}
		c.middleware = append(c.middleware, mw...)
		return nil
	}
}

// WithHooks sets the client's hooks; see Hooks.
func WithHooks(h Hooks) Option {
	return func(c *config) error {
		c.hooks = h
		return nil
	}
}

// WithCache sets the cache of GET responses that the service allows to be
// cached (see docs/sdk.md, "Caching"). The default is NewMemoryCache(32 <<
// 20); WithCache(nil) turns caching off, so every call is a full request.
func WithCache(c Cache) Option {
	return func(cfg *config) error {
		cfg.cache = c
		return nil
	}
}
