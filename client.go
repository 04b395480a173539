package gamedata

import (
	"bytes"
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/internal/adaptive"
	"github.com/gamedata-go/gamedata/internal/httpcache"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// Client reads the service. It is safe for concurrent use by many
// goroutines, which share its rate limiter. Create one with NewClient.
type Client struct {
	base      *url.URL
	http      *retryablehttp.Client
	adaptive  *adaptive.Rate
	userAgent string
	prefetch  int

	cache       Cache
	cacheCounts cacheCounts
	clock       clock

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
	if s == nil || s.client == nil || s.client.http == nil {
		return nil, errZeroClient
	}
	return s.client, nil
}

// get reads the endpoint at path, with query q, using the cache as mode
// says, and hands its body to decode.
func (s *service) get(ctx context.Context, mode cacheMode, q url.Values, decode func([]byte) error, path ...string) error {
	c, err := s.ready()
	if err != nil {
		return err
	}
	return c.getJSON(ctx, mode, c.endpoint(q, path...), decode)
}

// getRecord reads and decodes the record at the endpoint path; what names
// it in a decode error. Every Get is this and its own checks.
func getRecord[T any](ctx context.Context, s *service, mode cacheMode, what string, decode func([]byte) (T, error), path ...string) (T, error) {
	var v T
	err := s.get(ctx, mode, nil, func(b []byte) (err error) {
		if v, err = decode(b); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}, path...)
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
		base:      base,
		adaptive:  adaptive.New(limiter, cfg.adaptiveRate, cfg.logger),
		userAgent: cfg.userAgent,
		prefetch:  cfg.prefetch,
		cache:     cfg.cache,
		clock:     cfg.clock,
	}
	c.http = &retryablehttp.Client{
		HTTPClient: &http.Client{
			Transport: &attemptTransport{
				limiter:  limiter,
				adaptive: c.adaptive,
				next:     next,
				maxBytes: cfg.maxResponseBytes,
				timeout:  user.Timeout,
				stall:    cfg.stallTimeout,
				clock:    cfg.clock,
			},
			CheckRedirect: redirectPolicy(user.CheckRedirect),
			Jar:           user.Jar,
		},
		RetryMax:       cfg.retryMax,
		RetryWaitMin:   cfg.backoffMin,
		RetryWaitMax:   cfg.backoffMax,
		CheckRetry:     retryPolicy(cfg.backoffMax),
		Backoff:        backoff,
		RequestLogHook: countAttempt,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
	}
	if cfg.logger != nil {
		// *slog.Logger has the Debug/Info/Warn/Error methods of
		// retryablehttp.LeveledLogger. Left nil, retryablehttp logs nothing.
		c.http.Logger = cfg.logger
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
		return nil, invalidArgument("base URL %q: %s", raw, want)
	case u.Host == "":
		return nil, invalidArgument("base URL %q has no host: %s", raw, want)
	case u.User != nil:
		return nil, invalidArgument("base URL %q carries credentials; the service needs none", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return nil, invalidArgument("base URL %q has a query or fragment", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// endpoint builds the URL of an endpoint under the base URL. Each segment
// is escaped as one path segment: a "/" inside an identifier stays inside
// it.
func (c *Client) endpoint(query url.Values, segments ...string) *url.URL {
	u := *c.base
	u.Path, u.RawPath = joinPath(u.Path, segments, nil), joinPath(u.EscapedPath(), segments, url.PathEscape)
	u.RawQuery = query.Encode()
	return &u
}

// joinPath is base, then each segment after a "/", escaped by escape
// when it is not nil, built in one allocation: it is on every call.
func joinPath(base string, segments []string, escape func(string) string) string {
	n := len(base)
	for _, s := range segments {
		n += 1 + len(s)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(base)
	for _, s := range segments {
		if escape != nil {
			s = escape(s)
		}
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
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

// getJSON is the request path of every call: the cache entry for u, then
// the service, asked with the entry's validators, whose answer is a 200, a
// 304 that revalidates the entry, or a failure the entry may stand in for
// (stale-if-error); then the body, decoded by decode, and stored only once
// it decoded, so a bad body is never cached. mode, read where the call
// started, says how the call uses the cache.
//
// The cache sits above send and below decoding: a cached page is decoded,
// and so checked for its pagination.page, like a fresh one, while a
// redirect to another page fails in send and is never stored.
func (c *Client) getJSON(ctx context.Context, mode cacheMode, u *url.URL, decode func([]byte) error) error {
	if ctx == nil {
		return invalidArgument("nil context")
	}
	key := u.String()
	stored := c.lookup(key, mode)
	if stored != nil && mode == cacheNormal && stored.Fresh(c.clock.Now()) {
		c.cacheCounts.hits.Add(1)
		return decodeBody(u, stored.Body(), decode)
	}
	header := stored.Conditional()
	requested := c.clock.Now()
	r, err := c.send(ctx, u, header)
	if err == nil && r.status == http.StatusNotModified && header != nil && !stored.Selects(r.header) {
		// The 304 is about another version than the stored one: read the
		// current one in full.
		stored, header, requested = nil, nil, c.clock.Now()
		r, err = c.send(ctx, u, nil)
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
		body = stored.Body()
	case r.status != http.StatusNotModified:
		body, keep = r.body, c.entryOf(key, stored, r, requested, received)
	case header == nil:
		return fmt.Errorf("gamedata: GET %s: 304 Not Modified to a request that named no validator", u)
	default:
		c.cacheCounts.revalidations.Add(1)
		keep = stored.Revalidated(r.header, requested, received)
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

// lookup returns the entry stored under key that a call in mode may serve
// or revalidate, if any.
func (c *Client) lookup(key string, mode cacheMode) *httpcache.Entry {
	if c.cache == nil || mode == cacheSkip {
		return nil
	}
	return httpcache.Load(c.cache, key)
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
func (c *Client) entryOf(key string, stored *httpcache.Entry, r *response, requested, received time.Time) *httpcache.Entry {
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
// status is an *APIError. Every attempt goes through attemptTransport,
// which waits on the rate limiter, reads the body whole and classifies the
// response once; retryPolicy and backoff act on that verdict.
func (c *Client) send(ctx context.Context, u *url.URL, header http.Header) (*response, error) {
	attempts := new(int)
	ctx = context.WithValue(ctx, attemptsKey{}, attempts)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("gamedata: %w", err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)

	resp, err := c.http.Do(req)
	if err != nil {
		return nil, requestError(req.Method, u, *attempts, err)
	}
	defer resp.Body.Close()
	body := bodyOf(resp)
	if resp.StatusCode >= 200 && resp.StatusCode < 300 || resp.StatusCode == http.StatusNotModified {
		return &response{status: resp.StatusCode, header: resp.Header, body: body}, nil
	}
	return nil, &APIError{
		StatusCode: resp.StatusCode,
		Method:     req.Method,
		URL:        u.String(),
		Attempts:   *attempts,
		RetryAfter: verdictOf(resp).wait,
		Body:       body[:min(len(body), maxErrorBody)],
	}
}

// errZeroClient is the error of a Client that was not made by NewClient.
var errZeroClient = errors.New("gamedata: the Client is not initialized: create it with NewClient")

// attemptsKey is the context key under which send counts its attempts.
type attemptsKey struct{}

// countAttempt is the retryablehttp.RequestLogHook: it runs once before
// every attempt, so the count says how many were made.
func countAttempt(_ retryablehttp.Logger, req *http.Request, attempt int) {
	if n, ok := req.Context().Value(attemptsKey{}).(*int); ok {
		*n = attempt + 1
	}
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

// attemptTransport carries one attempt, under retryablehttp: it waits on
// the rate limiter (so retries and redirects wait too), abandons an
// attempt that receives nothing for the stall timeout, reads the body
// whole (a body cut short is an error here, and so is retried like a
// reset connection), and classifies the response once for the retry
// policy, the backoff and the adaptive rate.
type attemptTransport struct {
	limiter  *rate.Limiter
	adaptive *adaptive.Rate
	next     http.RoundTripper
	maxBytes int64
	timeout  time.Duration // the user's http.Client.Timeout, for each attempt
	stall    time.Duration
	clock    clock
}

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	epoch := t.adaptive.Epoch()
	if err := t.limiter.Wait(req.Context()); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		// The limiter refuses at once when its next slot is past the
		// context's deadline; to the caller that is the deadline.
		return nil, errLimiterDeadline
	}
	t.adaptive.Sent(t.clock.Now())

	ctx, cancel := context.WithCancelCause(req.Context())
	defer cancel(nil)
	if t.timeout > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, t.timeout)
		defer stop()
	}
	watch := newStallWatch(t.clock, t.stall, cancel)
	defer watch.stop()

	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		return nil, stalledOr(ctx, err)
	}
	v := classify(resp, t.clock.Now())
	t.adaptive.Observe(t.clock.Now(), epoch, v.throttle)
	limit := t.maxBytes
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		limit = maxErrorBody
	}
	body, err := readBody(resp, limit, watch.kick)
	if err != nil {
		return nil, stalledOr(ctx, err)
	}
	resp.Body = &attemptBody{Reader: bytes.NewReader(body), body: body, verdict: v}
	return resp, nil
}

// errLimiterDeadline is context.DeadlineExceeded, met early: the
// limiter's next slot is after the context's deadline.
var errLimiterDeadline = fmt.Errorf("%w: the rate limit allows no request before the context deadline", context.DeadlineExceeded)

// attemptBody is a body read whole by attemptTransport, with the verdict
// on its response.
type attemptBody struct {
	*bytes.Reader
	body    []byte
	verdict verdict
}

func (*attemptBody) Close() error { return nil }

// bodyOf returns the body attemptTransport read.
func bodyOf(resp *http.Response) []byte {
	if b, ok := resp.Body.(*attemptBody); ok {
		return b.body
	}
	return nil
}

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

// verdictOf returns the verdict attemptTransport gave a response.
func verdictOf(resp *http.Response) verdict {
	if b, ok := resp.Body.(*attemptBody); ok {
		return b.verdict
	}
	return verdict{}
}

// retryPolicy is the client's retryablehttp.CheckRetry. A Retry-After
// beyond backoffMax is not waited for: the call fails at once and the
// *APIError carries the wait, so nothing hangs and nothing retries early
// against the service's word.
func retryPolicy(backoffMax time.Duration) func(context.Context, *http.Response, error) (bool, error) {
	return func(ctx context.Context, resp *http.Response, err error) (bool, error) {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		if err != nil {
			return retryableError(err), err
		}
		v := verdictOf(resp)
		return v.retry && v.wait <= backoffMax, nil
	}
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

// backoff is the client's retryablehttp.Backoff: the wait the service asked
// for with Retry-After when it gave one (retryPolicy has already refused a
// wait beyond hi), otherwise exponential from lo with "equal jitter":
// between half and all of lo·2^attempt, capped at hi.
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait := verdictOf(resp).wait; wait > 0 {
			return wait
		}
	}
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
