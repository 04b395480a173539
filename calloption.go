package gamedata

import (
	"context"
	"net/http"
	"net/textproto"
	"net/url"
	"time"

	"github.com/gamedata-go/gamedata/internal/attempt"
)

// CallOption configures one call, given as the trailing arguments of any
// method that reads the service, such as
// c.Packages.Get(ctx, kind, ident, gamedata.WithCallRetries(0)). It is a
// type of its own, apart from the client's Option, so an option that only
// makes sense on a client cannot be given to a call: the compiler refuses
// it. A call option given a bad value fails the call with an error
// matching ErrInvalidArgument, before any request. Options apply in the
// order given; for a setting given twice the last one wins.
type CallOption func(*callConfig) error

// callConfig is what a call's options ask for; the zero value asks for
// nothing, so a call without options keeps the client's settings.
type callConfig struct {
	retries        int // -1 keeps the client's WithRetryMax
	attemptTimeout time.Duration
	header         http.Header
	query          url.Values
	mode           CacheMode // SkipCache's, unless WithCacheMode says
	into           *Response
	middleware     []Middleware
}

// CacheMode says how one call uses the client's cache; give it with
// WithCacheMode.
type CacheMode int

const (
	// CacheDefault serves a fresh stored response without a request,
	// revalidates a stale one with a conditional request, and stores what
	// the service allows to be stored.
	CacheDefault CacheMode = iota
	// CacheRevalidate sends a conditional request whatever the stored
	// response's freshness: an unchanged record costs a 304 without a
	// body, a changed one is read in full.
	CacheRevalidate
	// CacheSkip neither serves nor revalidates a stored response: the call
	// sends a full request, as with caching off. A response the service
	// allows to be stored still replaces the stored one, so CacheSkip also
	// refreshes the cache. SkipCache(ctx) asks for the same.
	CacheSkip
)

// WithCallRetries sets how many times this call retries a failed attempt
// (network errors, 429 and 5xx other than 501), in place of the client's
// WithRetryMax; 0 makes one attempt only.
func WithCallRetries(n int) CallOption {
	return func(c *callConfig) error {
		if n < 0 {
			return invalidArgument("WithCallRetries: %d retries, want 0 or more", n)
		}
		c.retries = n
		return nil
	}
}

// WithAttemptTimeout bounds each attempt of this call, retries and their
// rate-limit waits excluded, in place of the Timeout of the http.Client
// given to WithHTTPClient. An attempt that runs out is retried like a
// reset connection. The whole call is bounded by the context.
func WithAttemptTimeout(d time.Duration) CallOption {
	return func(c *callConfig) error {
		if d <= 0 {
			return invalidArgument("WithAttemptTimeout: %s, want more than 0", d)
		}
		c.attemptTimeout = d
		return nil
	}
}

// WithHeader adds a request header to every attempt of this call, after
// Accept and User-Agent, which it may replace. The cache's validators
// (If-None-Match, If-Modified-Since and the other conditional headers)
// and Host belong to the client and are refused, as are a name that is
// not an RFC 9110 token and a value with a control character (CR, LF,
// NUL). The header does not take part in the cache key.
func WithHeader(name, value string) CallOption {
	return func(c *callConfig) error {
		// Checked now: net/http would refuse it only when sending, as an
		// error the retries would take for a network failure.
		if err := attempt.CheckHeader(name, value); err != nil {
			return invalidArgument("WithHeader: %v", err)
		}
		key := textproto.CanonicalMIMEHeaderKey(name)
		switch key {
		case "Host", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range":
			return invalidArgument("WithHeader: header %q belongs to the client", name)
		}
		if c.header == nil {
			c.header = http.Header{}
		}
		c.header.Add(key, value)
		return nil
	}
}

// WithQuery adds a query parameter to this call's request; given twice
// with one name, it sends the parameter twice. A name the call already
// sends (a page, a search's q) is refused: use the call's own options for
// those. The parameter is part of the URL, so of the cache key.
func WithQuery(name, value string) CallOption {
	return func(c *callConfig) error {
		if name == "" {
			return invalidArgument("WithQuery: empty parameter name")
		}
		if c.query == nil {
			c.query = url.Values{}
		}
		c.query.Add(name, value)
		return nil
	}
}

// WithCacheMode sets how this call uses the client's cache; it wins over
// SkipCache on the context.
func WithCacheMode(m CacheMode) CallOption {
	return func(c *callConfig) error {
		switch m {
		case CacheDefault, CacheRevalidate, CacheSkip:
		default:
			return invalidArgument("WithCacheMode: unknown mode %d", int(m))
		}
		c.mode = m
		return nil
	}
}

// WithResponseInto makes the call fill *r with its Response when it ends,
// in success or failure. On a walk (All), *r holds the response of the
// page whose items are being yielded, set before the first of them; on a
// GetMany, the response of the item being yielded; on a Watch, that of
// the poll whose change or error is being yielded. Read *r in the
// goroutine that makes the call or iterates.
func WithResponseInto(r *Response) CallOption {
	return func(c *callConfig) error {
		if r == nil {
			return invalidArgument("WithResponseInto: nil *Response")
		}
		c.into = r
		return nil
	}
}

// WithCallMiddleware adds middleware to every attempt of this call, inside
// the client's (see Middleware for the order).
func WithCallMiddleware(mw ...Middleware) CallOption {
	return func(c *callConfig) error {
		for _, m := range mw {
			if m == nil {
				return invalidArgument("WithCallMiddleware: nil Middleware")
			}
		}
		c.middleware = append(c.middleware, mw...)
		return nil
	}
}

// resolveOptions resolves the options of a call made with ctx: the
// cache mode SkipCache put on ctx, then opts in order. A call, a walk, a
// fan-out and a watch each resolve theirs once, before anything is sent.
func resolveOptions(ctx context.Context, opts []CallOption) (callConfig, error) {
	if ctx == nil {
		return callConfig{}, invalidArgument("nil context")
	}
	cfg := callConfig{retries: -1}
	cfg.mode, _ = ctx.Value(cacheModeKey{}).(CacheMode)
	if len(opts) == 0 {
		return cfg, nil
	}
	return applyOptions(cfg, opts)
}

// applyOptions is resolveOptions for some options: apart, so that the
// config, which the options see, is on the heap only when there are some.
func applyOptions(cfg callConfig, opts []CallOption) (callConfig, error) {
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// SkipCache returns a context under which calls neither read from nor
// revalidate against the cache: each sends a full request, as with caching
// off. A response the service allows to be cached still replaces the
// stored one, so SkipCache also refreshes the cache. It is
// WithCacheMode(CacheSkip) for every call made with the context; a
// call's own WithCacheMode wins over it.
func SkipCache(ctx context.Context) context.Context {
	return context.WithValue(ctx, cacheModeKey{}, CacheSkip)
}

// cacheModeKey is the context key of SkipCache, a public per-call setting.
type cacheModeKey struct{}
