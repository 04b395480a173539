package gamedata

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/internal/adaptive"
	"github.com/gamedata-go/gamedata/internal/attempt"
	"github.com/gamedata-go/gamedata/internal/clock"
	"github.com/gamedata-go/gamedata/internal/httpcache"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/manifest"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// Client reads the service. It is safe for concurrent use by many
// goroutines, which share its rate limiter. Create one with NewClient.
type Client struct {
	base      *url.URL
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
	clock       clock.Clock

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
// query q and the call's options opts, and hands its body to decode: the
// calls with no checks or fill-ins of their own.
func (s *service) get(ctx context.Context, opts []CallOption, e manifest.Endpoint, q url.Values, decode func([]byte) error, args ...string) error {
	c, cfg, err := s.resolve(ctx, opts)
	if err != nil {
		return err
	}
	return c.call(ctx, cfg, e, q, decode, args...)
}

// resolve returns the client of s and the call options opts resolved, once
// for a whole call, walk, fan-out or watch, or the error that refuses the
// call before anything is sent.
func (s *service) resolve(ctx context.Context, opts []CallOption) (*Client, callConfig, error) {
	c, err := s.ready()
	if err != nil {
		return nil, callConfig{}, err
	}
	cfg, err := resolveOptions(ctx, opts)
	return c, cfg, err
}

// call reads endpoint e with args in place of its path parameters, with
// query q and the call's resolved options cfg, and hands its body to
// decode. It is where every call starts and ends: it makes the call, the
// one value every step of the request path reads, and fills cfg.into
// with the call's Response when the call ends.
func (c *Client) call(ctx context.Context, cfg callConfig, e manifest.Endpoint, q url.Values, decode func([]byte) error, args ...string) error {
	q, err := addQuery(q, cfg.query)
	if err != nil {
		return err
	}
	u, err := c.endpoint(e, q, args)
	if err != nil {
		return err
	}
	if c.hooks.OnStart != nil {
		if started := c.hooks.OnStart(ctx, StartEvent{Route: e.Path, URL: u.String()}); started != nil {
			ctx = started
		}
	}
	cl := c.newCall(ctx, e.Path, cfg)
	err = cl.getJSON(u, decode)
	cl.end(err)
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

// getRecord reads and decodes the record at endpoint e with args, with
// the call's resolved options cfg; what names it in a decode error. Every
// Get is this and its own checks.
func getRecord[T any](ctx context.Context, c *Client, cfg callConfig, e manifest.Endpoint, what string, decode func([]byte) (T, error), args ...string) (T, error) {
	var v T
	err := c.call(ctx, cfg, e, nil, func(b []byte) (err error) {
		if v, err = decode(b); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}, args...)
	return v, err
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

// call is one call: what its options asked for and what it has learnt so
// far. The call makes it where it starts (service.call) and every step of
// the request path reads it: the cache lookup, the retry engine's check
// (checkRetry), each attempt (RoundTrip) and the middleware chain.
type call struct {
	c     *Client
	ctx   context.Context // the call's, as Hooks.OnStart left it
	route string
	cfg   callConfig
	// chain is the middleware every attempt passes; its attempt is the
	// count of attempts made so far.
	chain  chain
	start  time.Time
	resp   Response
	served *httpcache.Entry // the stored response the call served, if any

	// retry is the call's retry engine, made by its first request (a
	// fresh cache hit needs none): go-retryablehttp around an http.Client
	// whose transport is the call itself, the hooks the call's methods.
	retry *retryablehttp.Client
}

// newCall starts a call of route with cfg, its resolved options.
func (c *Client) newCall(ctx context.Context, route string, cfg callConfig) *call {
	cl := &call{
		c:     c,
		ctx:   ctx,
		route: route,
		cfg:   cfg,
		chain: chain{middleware: c.middleware, transport: c.transport, route: route},
		start: c.clock.Now(),
	}
	if cfg.retries < 0 {
		cl.cfg.retries = c.retryMax
	}
	if cfg.attemptTimeout <= 0 {
		cl.cfg.attemptTimeout = c.timeout
	}
	if len(cfg.middleware) > 0 {
		cl.chain.middleware = append(slices.Clip(c.middleware), cfg.middleware...)
	}
	return cl
}

// engine returns the call's retry engine, making it at the call's first
// request.
func (cl *call) engine() *retryablehttp.Client {
	if cl.retry != nil {
		return cl.retry
	}
	e := &struct {
		retry retryablehttp.Client
		http  http.Client
	}{}
	e.http = http.Client{Transport: cl, CheckRedirect: cl.c.checkRedirect, Jar: cl.c.jar}
	e.retry = retryablehttp.Client{
		HTTPClient: &e.http,
		RetryMax:   cl.cfg.retries,
		CheckRetry: cl.checkRetry,
		// checkRetry waits, on the client's clock, before the retry it
		// decides on: the engine's own wait, on the wall's, is none.
		Backoff:      func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		// No Logger: left nil, retryablehttp logs nothing. Its own lines
		// would carry the full URL and raw error text, and log at Error an
		// attempt that is then retried; logAttempt writes the one line an
		// attempt has.
	}
	cl.retry = &e.retry
	return cl.retry
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
	if cl.cfg.into == nil && cl.c.hooks.OnDone == nil {
		return
	}
	if cl.served != nil {
		// Read only when asked for: a hit decodes no header otherwise.
		cl.resp.StatusCode, cl.resp.Header = cl.served.Status(), cl.served.Header()
	}
	if cl.cfg.into != nil {
		*cl.cfg.into = cl.resp
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
func (cl *call) getJSON(u *url.URL, decode func([]byte) error) error {
	c := cl.c
	key := u.String()
	stored := cl.lookup(key)
	if stored != nil && cl.cfg.mode == CacheDefault && stored.Fresh(c.clock.Now()) {
		c.cacheCounts.hits.Add(1)
		cl.resp.Cache, cl.served = CacheHit, stored
		return decodeBody(u, stored.Body(), decode)
	}
	header := stored.Conditional()
	requested := c.clock.Now()
	r, err := cl.send(u, header)
	if err == nil && r.status == http.StatusNotModified && header != nil && !stored.Selects(r.header) {
		// The 304 is about another version than the stored one: read the
		// current one in full.
		stored, header, requested = nil, nil, c.clock.Now()
		r, err = cl.send(u, nil)
	}
	received := c.clock.Now()

	var body []byte
	var keep *httpcache.Entry
	switch {
	case err != nil:
		if !c.servableOnError(cl.ctx, stored, err, received) {
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
	if cl.c.cache == nil || cl.cfg.mode == CacheSkip {
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
	if err := jsonscan.CheckStart(body); err != nil {
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

// response is a 2xx or 304 response with its whole body.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send performs a GET of u with retries, header added to every attempt,
// and returns a 2xx or 304 response with its whole body read; any other
// status is an *APIError. Every attempt is the call's RoundTrip, which
// waits on the rate limiter, passes the middleware and reads the body
// whole; checkRetry decides on a retry and waits for it.
func (cl *call) send(u *url.URL, header http.Header) (*response, error) {
	req, err := retryablehttp.NewRequestWithContext(cl.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("gamedata: %w", err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", cl.c.userAgent)
	for name, values := range cl.cfg.header {
		req.Header[name] = values
	}

	resp, err := cl.engine().Do(req)
	if err != nil {
		return nil, requestError(req.Method, u, cl.chain.attempt, err)
	}
	body := resp.Body.(*wholeBody).b // RoundTrip's, handed back by the engine
	cl.resp.StatusCode, cl.resp.Header = resp.StatusCode, resp.Header
	if resp.StatusCode >= 200 && resp.StatusCode < 300 || resp.StatusCode == http.StatusNotModified {
		return &response{status: resp.StatusCode, header: resp.Header, body: body}, nil
	}
	return nil, &APIError{
		StatusCode: resp.StatusCode,
		Method:     req.Method,
		URL:        u.String(),
		Attempts:   cl.chain.attempt,
		RetryAfter: attempt.Classify(resp.StatusCode, resp.Header, cl.c.clock.Now()).Wait,
		Body:       body[:min(len(body), maxErrorBody)],
	}
}

// wholeBody is a body an attempt read whole: RoundTrip returns it in its
// response, so that the http.Client and the retry engine can read and
// close it as any body, and send takes its bytes without a copy.
type wholeBody struct {
	bytes.Reader
	b []byte
}

func (*wholeBody) Close() error { return nil }

// errZeroClient is the error of a Client that was not made by NewClient.
var errZeroClient = errors.New("gamedata: the Client is not initialized: create it with NewClient")

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

// RoundTrip carries one attempt of the call, or one redirect of an
// attempt, under retryablehttp and the redirects of its http.Client: it
// counts the attempt, waits on the rate limiter (so retries and redirects
// wait too), passes the middleware, abandons an attempt that receives
// nothing for the stall timeout, and reads the body whole: a body cut
// short is an error here, and so is retried like a reset connection. It
// tells the adaptive rate and Hooks.OnThrottle of a throttle, and writes
// the attempt's debug line.
func (cl *call) RoundTrip(req *http.Request) (*http.Response, error) {
	c := cl.c
	if req.Response == nil { // not a redirect, which keeps its attempt's number
		cl.chain.attempt++
		cl.resp.Attempts++
	}
	start, epoch := c.clock.Now(), c.adaptive.Epoch()
	waited, err := c.adaptive.Wait(req.Context(), c.clock)
	cl.resp.RateLimitWait += waited
	var resp *http.Response
	if err == nil {
		c.adaptive.Sent(c.clock.Now())
		resp, err = cl.attempt(req, epoch)
	}
	if l := c.logger; l != nil && l.Enabled(req.Context(), slog.LevelDebug) {
		logAttempt(l, req, attemptLine{route: cl.route, attempt: cl.chain.attempt, cache: cl.resp.Cache, resp: resp, err: err, took: c.clock.Now().Sub(start), waited: waited})
	}
	return resp, err
}

// attempt sends req through the middleware under the attempt's timeout
// and the stall watch, and reads the answer whole. epoch is the adaptive
// rate's when the attempt began.
func (cl *call) attempt(req *http.Request, epoch uint64) (*http.Response, error) {
	c := cl.c
	ctx, cancel := context.WithCancelCause(req.Context())
	defer cancel(nil)
	if cl.cfg.attemptTimeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, cl.cfg.attemptTimeout)
		defer stop()
	}
	watch := attempt.NewStallWatch(c.clock, c.stall, cancel)
	defer watch.Stop()

	resp, err := cl.chain.roundTrip(req.WithContext(ctx))
	if err != nil {
		return nil, attempt.StalledOr(ctx, err)
	}
	v := attempt.Classify(resp.StatusCode, resp.Header, c.clock.Now())
	c.adaptive.Observe(c.clock.Now(), epoch, v.Throttle)
	if v.Throttle && c.hooks.OnThrottle != nil {
		c.hooks.OnThrottle(req.Context(), ThrottleEvent{Route: cl.route, Attempt: cl.chain.attempt, StatusCode: resp.StatusCode, RetryAfter: v.Wait})
	}
	limit := c.maxBytes
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		limit = maxErrorBody
	}
	body, err := attempt.Read(resp, limit, watch.Kick)
	var tooLarge *attempt.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, fmt.Errorf("%w: %s", ErrResponseTooLarge, tooLarge)
	case err != nil:
		return nil, attempt.StalledOr(ctx, err)
	}
	wb := &wholeBody{b: body}
	wb.Reset(body)
	resp.Body = wb
	return resp, nil
}

// checkRetry is the call's retryablehttp.CheckRetry: after each attempt it
// decides, from what the attempt returned, whether to try again, and
// then, before returning, waits for the retry on the client's clock: the
// Retry-After the service asked for, or a backoff. A Retry-After beyond
// the backoff maximum is not waited for: the call fails at once and the
// *APIError carries the wait, so nothing hangs and nothing retries early
// against the service's word.
func (cl *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	e := RetryEvent{Route: cl.route, Attempt: cl.chain.attempt, Err: err}
	retry := err != nil && retryableError(err)
	if err == nil {
		v := attempt.Classify(resp.StatusCode, resp.Header, cl.c.clock.Now())
		retry = v.Retry && v.Wait <= cl.c.backoffMax
		e.StatusCode, e.Wait = resp.StatusCode, v.Wait
	}
	if !retry || cl.chain.attempt > cl.cfg.retries {
		// No retry, or none left: the engine ends the call.
		return retry, err
	}
	if e.Wait <= 0 {
		e.Wait = attempt.Backoff(cl.c.backoffMin, cl.c.backoffMax, cl.chain.attempt-1)
	}
	if cl.c.hooks.OnRetry != nil {
		cl.c.hooks.OnRetry(cl.ctx, e)
	}
	if err := cl.c.clock.Sleep(ctx, e.Wait); err != nil {
		return false, err
	}
	return true, nil
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
	case errors.Is(err, adaptive.ErrDeadline),
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
