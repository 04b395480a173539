package gamedata

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/internal/adaptive"
	"github.com/gamedata-go/gamedata/internal/httpcache"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/manifest"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// Client reads the service. It is safe for concurrent use by many
// goroutines, which share its rate limiter. Create one with NewClient.
type Client struct {
	base      *url.URL
	limiter   *rate.Limiter
	adaptive  *adaptive.Rate
	userAgent string
	prefetch  int

	// What every attempt needs, read by each call's state.
	transport     http.RoundTripper
	checkRedirect func(*http.Request, []*http.Request) error
	jar           http.CookieJar
	timeout       time.Duration // the user's http.Client.Timeout, for each attempt
	stall         time.Duration
	maxBytes      int64
	retryMax      int
	backoffMin    time.Duration
	backoffMax    time.Duration
	logger        *slog.Logger
	middleware    []Middleware
	hooks         Hooks

	cache       Cache
	cacheCounts cacheCounts
	clock       clock
	calls       sync.Pool // of *call, reused from call to call

	// Dashboard lists packages and dedicated servers.
	Dashboard *DashboardService
	// Packages reads packages, games among them.
	Packages *PackagesService
	// Servers reads dedicated servers.
	Servers *ServersService
	// Organizations reads and lists organizations that publish games.
	Organizations *OrganizationsService
	// Activity reads player activity history.
	Activity *ActivityService
	// Analytics searches and reads analytics reports.
	Analytics *AnalyticsService
}

type service struct{ client *Client }

// ready returns the service's client, or an error for a service of a
// Client that NewClient did not make.
func (s *service) ready() (*Client, error) {
	if s == nil || s.client == nil || s.client.transport == nil {
		return nil, errZeroClient
	}
	return s.client, nil
}

// get reads endpoint e with args in place of its path parameters, with
// query q and the call's options, and hands its body to decode. It is
// where every call starts and ends: it makes the call's state, the one
// value every step of the request path reads.
func (s *service) get(ctx context.Context, opts []CallOption, e manifest.Endpoint, q url.Values, decode func([]byte) error, args ...string) error {
	return s.getInto(ctx, opts, nil, e, q, decode, args...)
}

// getInto is get that also fills resp, when not nil, with the call's
// Response, as a WithResponseInto among opts is filled: List uses it for
// the Response a Page carries.
func (s *service) getInto(ctx context.Context, opts []CallOption, resp *Response, e manifest.Endpoint, q url.Values, decode func([]byte) error, args ...string) error {
	c, err := s.ready()
	if err != nil {
		return err
	}
	if ctx == nil {
		return invalidArgument("nil context")
	}
	cfg, err := resolveOptions(opts)
	if err != nil {
		return err
	}
	if q, err = addQuery(q, cfg.query); err != nil {
		return err
	}
	u, err := c.endpoint(e, q, args)
	if err != nil {
		return err
	}
	route := e.Path
	asked := cfg.into
	if resp != nil {
		cfg.into = resp
	}
	cl := c.newCall(ctx, route, &cfg)
	if c.hooks.OnStart != nil {
		if started := c.hooks.OnStart(ctx, StartEvent{Route: route, URL: u.String()}); started != nil {
			ctx = started
		}
	}
	cl.ctx = ctx
	err = cl.getJSON(ctx, u, decode)
	cl.end(err)
	cl.release()
	if asked != nil && resp != nil {
		*asked = *resp
	}
	return err
}

// addQuery adds the parameters of WithQuery to q, the call's own, and
// refuses one that q already sends.
func addQuery(q, extra url.Values) (url.Values, error) {
	if len(extra) == 0 {
		return q, nil
	}
	if q == nil {
		q = url.Values{}
	}
	for name, values := range extra {
		if q.Has(name) {
			return nil, invalidArgument("WithQuery: the call already sends %q", name)
		}
		q[name] = values
	}
	return q, nil
}

// getRecord reads and decodes the record at the endpoint path; what names
// it in a decode error. Every Get is this and its own checks.
func getRecord[T any](ctx context.Context, s *service, opts []CallOption, e manifest.Endpoint, what string, decode func([]byte) (T, error), args ...string) (T, error) {
	var v T
	err := s.get(ctx, opts, e, nil, func(b []byte) (err error) {
		if v, err = decode(b); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}, args...)
	return v, err
}

// prefetch is how many pages a walk fetches ahead: the client's setting,
// or none for a service that is not ready (whose walk fails at once).
func (s *service) prefetch() int {
	if c, err := s.ready(); err == nil {
		return c.prefetch
	}
	return 0
}

// NewClient returns a client for the service at baseURL, an absolute http
// or https URL that may carry a path prefix ("https://host/prefix/"): every
// endpoint path is resolved under it. It makes no network call.
func NewClient(baseURL string, opts ...Option) (*Client, error) {
	base, err := parseBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	cfg := defaultConfig()
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}

	user := cfg.httpClient
	if user == nil {
		user = &http.Client{}
	}
	next := user.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	limiter := rate.NewLimiter(cfg.rateLimit, cfg.rateBurst)
	c := &Client{
		base:          base,
		limiter:       limiter,
		adaptive:      adaptive.New(limiter, cfg.adaptiveRate, cfg.logger),
		userAgent:     cfg.userAgent,
		prefetch:      cfg.prefetch,
		transport:     next,
		checkRedirect: redirectPolicy(user.CheckRedirect),
		jar:           user.Jar,
		timeout:       user.Timeout,
		stall:         cfg.stallTimeout,
		maxBytes:      cfg.maxResponseBytes,
		retryMax:      cfg.retryMax,
		backoffMin:    cfg.backoffMin,
		backoffMax:    cfg.backoffMax,
		logger:        cfg.logger,
		middleware:    cfg.middleware,
		hooks:         cfg.hooks,
		cache:         cfg.cache,
		clock:         cfg.clock,
	}

	s := service{client: c}
	c.Dashboard = (*DashboardService)(&s)
	c.Packages = (*PackagesService)(&s)
	c.Servers = (*ServersService)(&s)
	c.Organizations = (*OrganizationsService)(&s)
	c.Activity = (*ActivityService)(&s)
	c.Analytics = (*AnalyticsService)(&s)
	return c, nil
}

func parseBaseURL(raw string) (*url.URL, error) {
	const want = "want an absolute http or https URL, such as https://host/"
	if raw == "" {
		return nil, invalidArgument("empty base URL: %s", want)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil, u.Scheme != "http" && u.Scheme != "https", u.Opaque != "":
		return nil, invalidArgument("base URL %q: %s", withoutSecrets(raw), want)
	case u.Host == "":
		return nil, invalidArgument("base URL %q has no host: %s", withoutSecrets(raw), want)
	case u.User != nil:
		return nil, invalidArgument("base URL %q carries credentials; the service needs none", withoutSecrets(raw))
	case u.RawQuery != "" || u.Fragment != "":
		return nil, invalidArgument("base URL %q has a query or fragment", withoutSecrets(raw))
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// withoutSecrets is a base URL as an error may say it. A refused base URL
// may be refused for the very secret it carries (a password in its user
// information, a token in its query or fragment), and an error is read
// where the user's secrets must not be: so none of those parts is said,
// whether or not the URL parses. What is left names the URL enough to
// find the flag or variable it came from.
func withoutSecrets(raw string) string {
	shown, _, cut := strings.Cut(raw, "#")
	shown, _, query := strings.Cut(shown, "?")
	authority := 0
	if i := strings.Index(shown, "://"); i >= 0 {
		authority = i + len("://")
	}
	if at := strings.LastIndex(shown, "@"); at >= authority {
		shown = shown[:authority] + "…" + shown[at:]
	}
	if query || cut {
		shown += "?…"
	}
	return shown
}

// endpoint builds the URL of endpoint e, with args in place of its path
// parameters, under the base URL. Each argument is escaped as one path
// segment: a "/" inside an identifier stays inside it. The route template
// and the URL come from the one Endpoint, so they cannot differ.
func (c *Client) endpoint(e manifest.Endpoint, query url.Values, args []string) (*url.URL, error) {
	u := *c.base
	path, ok := e.Join(u.Path, nil, args)
	raw, _ := e.Join(u.EscapedPath(), url.PathEscape, args)
	if !ok {
		return nil, fmt.Errorf("gamedata: %s takes %d path arguments, not %d", e.Path, len(e.PathParams()), len(args))
	}
	u.Path, u.RawPath = path, raw
	u.RawQuery = query.Encode()
	return &u, nil
}

// checkSegments refuses, before any request is sent, identifiers that
// cannot be one path segment: an empty one, and the dot segments "." and
// "..", which url.PathEscape leaves as they are and which a server or proxy
// would resolve to another path.
func checkSegments(names []string, values ...string) error {
	for i, v := range values {
		switch v {
		case "":
			return invalidArgument("empty %s", names[i])
		case ".", "..":
			return invalidArgument("%s %q is a dot segment, not an identifier", names[i], v)
		}
	}
	return nil
}

// call is one call's state: what its options asked for and what it has
// learnt so far. The call makes it where it starts (service.get) and every
// step of the request path reads it: the cache lookup, the retry engine's
// hooks (countAttempt, checkRetry, backoff), each attempt (RoundTrip) and
// the middleware chain. Nothing of it travels in a context or a body.
type call struct {
	callState
	// The retry engine and the http.Client under it, whose hooks are the
	// call's methods. They are made once for a call value, which the
	// client keeps in a pool between calls (see newCall), so a call pays
	// for neither them nor their hooks' closures.
	retry retryablehttp.Client
	http  http.Client
}

// callState is what one call knows; a call value starts each call with a
// new one.
type callState struct {
	c        *Client
	ctx      context.Context // the call's, as Hooks.OnStart left it
	route    string
	mode     CacheMode
	retryMax int
	timeout  time.Duration // for each attempt
	header   http.Header   // added to every attempt
	into     *Response
	// chain is the middleware every attempt passes; its attempt is the
	// count of attempts made so far.
	chain chain

	start   time.Time
	verdict verdict // of the last response an attempt received
	body    []byte  // of the last response an attempt received
	lastErr error   // of the last attempt that failed without a response
	resp    Response
	served  *httpcache.Entry // the stored response the call served, if any
}

// newCall starts a call of route with cfg, resolved from its options,
// and the cache mode SkipCache put on ctx unless cfg says otherwise.
func (c *Client) newCall(ctx context.Context, route string, cfg *callConfig) *call {
	cl, _ := c.calls.Get().(*call)
	if cl == nil {
		cl = c.makeCall()
	}
	cl.callState = callState{
		c:        c,
		route:    route,
		mode:     cacheModeOf(ctx),
		retryMax: c.retryMax,
		timeout:  c.timeout,
		header:   cfg.header,
		into:     cfg.into,
		chain:    chain{middleware: c.middleware, transport: c.transport, route: route},
		start:    c.clock.Now(),
	}
	if cfg.modeSet {
		cl.mode = cfg.mode
	}
	if cfg.retries >= 0 {
		cl.retryMax = cfg.retries
	}
	if cfg.attemptTimeout > 0 {
		cl.timeout = cfg.attemptTimeout
	}
	if len(cfg.middleware) > 0 {
		cl.chain.middleware = append(slices.Clip(c.middleware), cfg.middleware...)
	}
	cl.retry.RetryMax = cl.retryMax
	return cl
}

// makeCall makes a call value of c, with its retry engine: go-retryablehttp
// around an http.Client whose transport is the call itself, both with the
// call's hooks.
func (c *Client) makeCall() *call {
	cl := &call{}
	cl.http = http.Client{Transport: cl, CheckRedirect: c.checkRedirect, Jar: c.jar}
	cl.retry = retryablehttp.Client{
		HTTPClient:     &cl.http,
		RetryWaitMin:   c.backoffMin,
		RetryWaitMax:   c.backoffMax,
		CheckRetry:     cl.checkRetry,
		Backoff:        cl.backoff,
		RequestLogHook: cl.countAttempt,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		// No Logger: left nil, retryablehttp logs nothing. Its own lines
		// would carry the full URL and raw error text, and log at Error an
		// attempt that is then retried; logAttempt writes the one line an
		// attempt has.
	}
	return cl
}

// release hands the call value back to its client's pool, holding nothing
// of the call that ended.
func (cl *call) release() {
	c := cl.c
	cl.callState = callState{}
	c.calls.Put(cl)
}

// end records how the call ended: in the caller's Response, in the
// *APIError of a failure, and through Hooks.OnDone.
func (cl *call) end(err error) {
	cl.resp.Duration = cl.c.clock.Now().Sub(cl.start)
	if err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			apiErr.Response = cl.resp
		}
	}
	if cl.into == nil && cl.c.hooks.OnDone == nil {
		return
	}
	if cl.served != nil {
		// Read only when asked for: a hit decodes no header otherwise.
		cl.resp.StatusCode, cl.resp.Header = cl.served.Status(), cl.served.Header()
	}
	if cl.into != nil {
		*cl.into = cl.resp
	}
	if cl.c.hooks.OnDone != nil {
		cl.c.hooks.OnDone(cl.ctx, DoneEvent{Route: cl.route, Response: cl.resp, Err: err})
	}
}

// getJSON is the request path of every call: the cache entry for u, then
// the service, asked with the entry's validators, whose answer is a 200, a
// 304 that revalidates the entry, or a failure the entry may stand in for
// (stale-if-error); then the body, decoded by decode, and stored only once
// it decoded, so a bad body is never cached.
//
// The cache sits above send and below decoding: a cached page is decoded,
// and so checked for its pagination.page, like a fresh one, while a
// redirect to another page fails in send and is never stored.
func (cl *call) getJSON(ctx context.Context, u *url.URL, decode func([]byte) error) error {
	c := cl.c
	key := u.String()
	stored := cl.lookup(key)
	if stored != nil && cl.mode == CacheDefault && stored.Fresh(c.clock.Now()) {
		c.cacheCounts.hits.Add(1)
		cl.resp.Cache, cl.served = CacheHit, stored
		return decodeBody(u, stored.Body(), decode)
	}
	header := stored.Conditional()
	requested := c.clock.Now()
	r, err := cl.send(ctx, u, header)
	if err == nil && r.status == http.StatusNotModified && header != nil && !stored.Selects(r.header) {
		// The 304 is about another version than the stored one: read the
		// current one in full.
		stored, header, requested = nil, nil, c.clock.Now()
		r, err = cl.send(ctx, u, nil)
	}
	received := c.clock.Now()

	var body []byte
	var keep *httpcache.Entry
	switch {
	case err != nil:
		if !c.servableOnError(ctx, stored, err, received) {
			return err
		}
		c.cacheCounts.hits.Add(1)
		cl.resp.Cache, cl.served = CacheHit, stored
		body = stored.Body()
	case r.status != http.StatusNotModified:
		body, keep = r.body, cl.entryOf(key, stored, r, requested, received)
	case header == nil:
		return fmt.Errorf("gamedata: GET %s: 304 Not Modified to a request that named no validator", u)
	default:
		c.cacheCounts.revalidations.Add(1)
		keep = stored.Revalidated(r.header, requested, received)
		cl.resp.Cache, cl.served = CacheRevalidated, keep
		body = keep.Body()
	}
	if err := decodeBody(u, body, decode); err != nil {
		return err
	}
	if keep != nil {
		httpcache.Save(c.cache, key, keep)
	}
	return nil
}

// lookup returns the entry stored under key that the call may serve or
// revalidate, if any, and records whether the cache takes part.
func (cl *call) lookup(key string) *httpcache.Entry {
	if cl.c.cache == nil || cl.mode == CacheSkip {
		return nil
	}
	cl.resp.Cache = CacheMiss
	return httpcache.Load(cl.c.cache, key)
}

// servableOnError tells whether stored may stand in for a request that
// failed with err at now: the service unreachable or failing, not the
// caller giving up, and within the service's stale-if-error.
func (c *Client) servableOnError(ctx context.Context, stored *httpcache.Entry, err error, now time.Time) bool {
	return stored != nil && ctx.Err() == nil && serverFailed(err) && stored.ServableOnError(now)
}

// entryOf counts a full response r as a miss and returns the entry to
// store for it, or nil when the service does not allow it to be stored,
// in which case the entry stored before, which it may not replace, is
// removed.
func (cl *call) entryOf(key string, stored *httpcache.Entry, r *response, requested, received time.Time) *httpcache.Entry {
	c := cl.c
	if c.cache == nil {
		return nil
	}
	c.cacheCounts.misses.Add(1)
	e, ok := httpcache.NewEntry(r.status, r.header, requested, received, r.body)
	if !ok && stored != nil {
		c.cache.Delete(key)
	}
	return e
}

// decodeBody hands body, the answer for u, to decode. A body that is not
// JSON at all, or that decode refuses, is a *DecodeError that names the
// URL.
func decodeBody(u *url.URL, body []byte, decode func([]byte) error) error {
	if err := checkJSONStart(body); err != nil {
		return &DecodeError{URL: u.String(), Err: err}
	}
	if err := decode(body); err != nil {
		if errors.Is(err, ErrPageOutOfRange) {
			return requestError(http.MethodGet, u, 1, err)
		}
		var de *DecodeError
		if !errors.As(err, &de) {
			de = &DecodeError{Err: err}
		}
		de.URL = u.String()
		return de
	}
	return nil
}

// checkJSONStart gives a clear error for the bodies that are not JSON at
// all, such as an empty body or an HTML error page served with status 200.
func checkJSONStart(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return errors.New("empty response body, want JSON")
	case trimmed[0] != '{' && trimmed[0] != '[':
		return fmt.Errorf("response is not JSON: it starts with %q", jsonscan.Clip(trimmed[:min(len(trimmed), 16)]))
	}
	return nil
}

// response is a 2xx or 304 response with its whole body.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send performs a GET of u with retries, header added to every attempt,
// and returns a 2xx or 304 response with its whole body read; any other
// status is an *APIError. Every attempt is the call's RoundTrip, which
// waits on the rate limiter, passes the middleware, reads the body whole
// and classifies the response once; checkRetry and backoff act on that
// verdict.
func (cl *call) send(ctx context.Context, u *url.URL, header http.Header) (*response, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("gamedata: %w", err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", cl.c.userAgent)
	for name, values := range cl.header {
		req.Header[name] = values
	}

	resp, err := cl.retry.Do(req)
	if err != nil {
		return nil, requestError(req.Method, u, cl.chain.attempt, err)
	}
	defer resp.Body.Close()
	body := cl.body
	cl.resp.StatusCode, cl.resp.Header = resp.StatusCode, resp.Header
	if resp.StatusCode >= 200 && resp.StatusCode < 300 || resp.StatusCode == http.StatusNotModified {
		return &response{status: resp.StatusCode, header: resp.Header, body: body}, nil
	}
	return nil, &APIError{
		StatusCode: resp.StatusCode,
		Method:     req.Method,
		URL:        u.String(),
		Attempts:   cl.chain.attempt,
		RetryAfter: cl.verdict.wait,
		Body:       body[:min(len(body), maxErrorBody)],
	}
}

// errZeroClient is the error of a Client that was not made by NewClient.
var errZeroClient = errors.New("gamedata: the Client is not initialized: create it with NewClient")

// countAttempt is the retryablehttp.RequestLogHook: it runs once before
// every attempt, so the count says how many were made.
func (cl *call) countAttempt(_ retryablehttp.Logger, _ *http.Request, attempt int) {
	cl.chain.attempt = attempt + 1
	cl.resp.Attempts++
}

// requestError names the request once, says how many attempts it took when
// it took more than one, and unwraps *url.Error so its cause is what
// errors.Is and errors.As see first.
func requestError(method string, u *url.URL, attempts int, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &requestFailure{method: method, url: u.String(), attempts: attempts, err: err}
}

// requestFailure is a failed request: its message names the request and
// says the "gamedata:" prefix once, whatever its cause says, and is
// sanitized, since a cause may carry what the service chose (a redirect's
// target).
type requestFailure struct {
	method, url string
	attempts    int
	err         error
}

func (e *requestFailure) Error() string {
	after := ""
	if e.attempts > 1 {
		after = fmt.Sprintf(" after %d attempts", e.attempts)
	}
	return sanitize.String(fmt.Sprintf("gamedata: %s %s%s: %s", e.method, e.url, after, unprefixed(e.err)))
}

func (e *requestFailure) Unwrap() error { return e.err }

// RoundTrip carries one attempt of the call, under retryablehttp and the
// redirects of its http.Client: it waits on the rate limiter (so retries
// and redirects wait too), passes the middleware, abandons an attempt
// that receives nothing for the stall timeout, reads the body whole (a
// body cut short is an error here, and so is retried like a reset
// connection), and classifies the response once, for checkRetry, backoff
// and the adaptive rate.
func (cl *call) RoundTrip(req *http.Request) (*http.Response, error) {
	start, waited := cl.c.clock.Now(), cl.resp.RateLimitWait
	resp, err := cl.attempt(req)
	if l := cl.c.logger; l != nil && l.Enabled(req.Context(), slog.LevelDebug) {
		cl.logAttempt(l, req, resp, err, cl.c.clock.Now().Sub(start), cl.resp.RateLimitWait-waited)
	}
	return resp, err
}

// logAttempt writes the debug line of an attempt: never a body, and an
// error's text only through the sanitizer, since it may quote what the
// service sent.
func (cl *call) logAttempt(l *slog.Logger, req *http.Request, resp *http.Response, err error, took, waited time.Duration) {
	attrs := []slog.Attr{
		slog.String("method", req.Method),
		slog.String("route", cl.route),
		slog.Int("attempt", cl.chain.attempt),
	}
	cache := cl.resp.Cache
	switch {
	case err != nil:
		attrs = append(attrs, slog.String("error", sanitize.String(err.Error())))
	case resp.StatusCode == http.StatusNotModified:
		cache = CacheRevalidated
		fallthrough
	default:
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	attrs = append(attrs, slog.String("cache", cache.String()), slog.Duration("duration", took), slog.Duration("rate_limit_wait", waited))
	l.LogAttrs(req.Context(), slog.LevelDebug, "gamedata: attempt", attrs...)
}

// attempt is RoundTrip but for its log line.
func (cl *call) attempt(req *http.Request) (*http.Response, error) {
	c := cl.c
	epoch := c.adaptive.Epoch()
	waited, err := c.waitLimiter(req.Context())
	cl.resp.RateLimitWait += waited
	if err != nil {
		return nil, err
	}
	c.adaptive.Sent(c.clock.Now())

	ctx, cancel := context.WithCancelCause(req.Context())
	defer cancel(nil)
	if cl.timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, cl.timeout)
		defer stop()
	}
	watch := newStallWatch(c.clock, c.stall, cancel)
	defer watch.stop()

	resp, err := cl.chain.roundTrip(req.WithContext(ctx))
	if err != nil {
		return nil, stalledOr(ctx, err)
	}
	v := classify(resp, c.clock.Now())
	c.adaptive.Observe(c.clock.Now(), epoch, v.throttle)
	if v.throttle && c.hooks.OnThrottle != nil {
		c.hooks.OnThrottle(req.Context(), ThrottleEvent{Route: cl.route, Attempt: cl.chain.attempt, StatusCode: resp.StatusCode, RetryAfter: v.wait})
	}
	limit := c.maxBytes
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		limit = maxErrorBody
	}
	body, err := readBody(resp, limit, watch.kick)
	if err != nil {
		return nil, stalledOr(ctx, err)
	}
	cl.verdict, cl.body = v, body
	rb := &readBytes{}
	rb.Reset(body)
	resp.Body = rb
	return resp, nil
}

// waitLimiter waits, on the client's clock, for the rate limiter's next
// slot, and returns how long it waited.
func (c *Client) waitLimiter(ctx context.Context) (time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	now := c.clock.Now()
	r := c.limiter.ReserveN(now, 1)
	if !r.OK() {
		return 0, errLimiterDeadline
	}
	d := r.DelayFrom(now)
	if d <= 0 {
		return 0, nil
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		// The slot is after the context's deadline: to the caller that is
		// the deadline, met at once rather than waited for.
		r.CancelAt(now)
		return 0, errLimiterDeadline
	}
	if err := c.clock.Sleep(ctx, d); err != nil {
		r.CancelAt(c.clock.Now())
		return 0, err
	}
	return d, nil
}

// errLimiterDeadline is context.DeadlineExceeded, met early: the
// limiter's next slot is after the context's deadline.
var errLimiterDeadline = fmt.Errorf("%w: the rate limit allows no request before the context deadline", context.DeadlineExceeded)

// readBytes is a body RoundTrip has read whole, handed on so that the
// http.Client and the retry engine can read and close it as any body.
type readBytes struct{ bytes.Reader }

func (*readBytes) Close() error { return nil }

// verdict is what a response means for its request, decided once by
// classify.
type verdict struct {
	// retry: the same request may succeed later (429, 5xx but 501).
	retry bool
	// throttle: the service is limiting the client's rate (429, or 503
	// with Retry-After).
	throttle bool
	// wait is the Retry-After of a 429 or 503, or 0.
	wait time.Duration
}

func classify(resp *http.Response, now time.Time) verdict {
	s := resp.StatusCode
	v := verdict{retry: s == http.StatusTooManyRequests || (s >= 500 && s != http.StatusNotImplemented)}
	if s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable {
		header := resp.Header.Get("Retry-After")
		v.throttle = s == http.StatusTooManyRequests || header != ""
		v.wait = retryAfter(header, now)
	}
	return v
}

// checkRetry is the call's retryablehttp.CheckRetry, on the verdict of
// the attempt's response. A Retry-After beyond the backoff maximum is not
// waited for: the call fails at once and the *APIError carries the wait,
// so nothing hangs and nothing retries early against the service's word.
func (cl *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		cl.lastErr = err
		return retryableError(err), err
	}
	cl.lastErr = nil
	return cl.verdict.retry && cl.verdict.wait <= cl.c.backoffMax, nil
}

// serverFailed tells the failures that stale-if-error covers: the service
// unreachable, or answering 500, 502, 503 or 504 (RFC 5861 §4).
func serverFailed(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return retryableError(err) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

// retryableError tells transient failures (a reset, a cut body, a stall)
// from those that the same request would meet again.
func retryableError(err error) bool {
	var unknownAuthority x509.UnknownAuthorityError
	var invalidCert x509.CertificateInvalidError
	var hostname x509.HostnameError
	switch {
	case errors.Is(err, errLimiterDeadline),
		errors.Is(err, ErrRedirectRefused),
		errors.Is(err, ErrPageOutOfRange),
		errors.Is(err, ErrResponseTooLarge),
		errors.Is(err, ErrTooManyRedirects),
		errors.As(err, &unknownAuthority),
		errors.As(err, &invalidCert),
		errors.As(err, &hostname):
		return false
	}
	return true
}

// backoff is the call's retryablehttp.Backoff: the wait the service
// asked for with Retry-After when it gave one (checkRetry has already
// refused a wait beyond hi), otherwise backoffWait. It tells
// Hooks.OnRetry of the retry it precedes.
func (cl *call) backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	wait := cl.verdict.wait
	if resp == nil || wait <= 0 {
		wait = backoffWait(lo, hi, attempt)
	}
	if cl.c.hooks.OnRetry != nil {
		e := RetryEvent{Route: cl.route, Attempt: cl.chain.attempt, Err: cl.lastErr, Wait: wait}
		if resp != nil {
			e.StatusCode = resp.StatusCode
		}
		cl.c.hooks.OnRetry(cl.ctx, e)
	}
	return wait
}

// backoffWait is exponential from lo with "equal jitter": between half
// and all of lo·2^attempt, capped at hi.
func backoffWait(lo, hi time.Duration, attempt int) time.Duration {
	d := lo
	for range attempt {
		if d >= hi/2 {
			d = hi
			break
		}
		d *= 2
	}
	d = min(d, hi)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// maxRetryAfter bounds a Retry-After, so a huge one cannot overflow.
const maxRetryAfter = 365 * 24 * time.Hour

// retryAfter reads a Retry-After header, in seconds or as an HTTP date. It
// returns 0 when there is none, or when it is in the past.
func retryAfter(header string, now time.Time) time.Duration {
	if header == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(header, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(header); err == nil {
		if d := at.Sub(now); d > 0 {
			return min(d.Round(time.Second), maxRetryAfter)
		}
	}
	return 0
}

// readBody reads a whole body of at most limit bytes, calling progress
// after every read that brought bytes. A body that ends before its
// framing says it ends (short of its Content-Length, a chunked body
// without its last chunk, a gzip body without its trailer) is
// io.ErrUnexpectedEOF, never a short body.
func readBody(resp *http.Response, limit int64, progress func()) ([]byte, error) {
	defer resp.Body.Close()
	r := &progressReader{r: resp.Body, progress: progress}
	n := resp.ContentLength
	if n > limit {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", ErrResponseTooLarge, n, limit)
	}
	if n < 0 {
		body, err := io.ReadAll(io.LimitReader(r, limit+1))
		if err == nil && int64(len(body)) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, limit)
		}
		return body, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// progressReader calls progress after every read that brought bytes.
type progressReader struct {
	r        io.Reader
	progress func()
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.progress()
	}
	return n, err
}

// stallWatch abandons an attempt that receives nothing for d: no response
// headers yet, or no new body bytes. It bounds silence, not the whole
// attempt, so a large body over a slow link succeeds while bytes come.
type stallWatch struct {
	timer timer
	d     time.Duration
}

func newStallWatch(clk clock, d time.Duration, cancel context.CancelCauseFunc) *stallWatch {
	if d <= 0 {
		return &stallWatch{}
	}
	return &stallWatch{d: d, timer: clk.AfterFunc(d, func() { cancel(&stallError{d: d}) })}
}

// kick restarts the wait: bytes came.
func (w *stallWatch) kick() {
	if w.timer != nil {
		w.timer.Reset(w.d)
	}
}

func (w *stallWatch) stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// stalledOr returns the stall that cancelled an attempt's ctx, or else
// err.
func stalledOr(ctx context.Context, err error) error {
	var stall *stallError
	if errors.As(context.Cause(ctx), &stall) {
		return stall
	}
	return err
}

// stallError is an attempt abandoned because the connection went silent.
// It matches os.ErrDeadlineExceeded, as a read deadline on the connection
// would.
type stallError struct{ d time.Duration }

func (e *stallError) Error() string {
	return fmt.Sprintf("connection stalled: nothing received for %s", e.d)
}

func (e *stallError) Is(target error) bool { return target == os.ErrDeadlineExceeded }

// Timeout reports true, as net.Error's timeouts do.
func (e *stallError) Timeout() bool { return true }
