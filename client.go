package gamedata

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/time/rate"
)

// Version is the version of this module, sent in the default User-Agent.
const Version = "0.1.0"

// Client reads the service. It is safe for concurrent use by many
// goroutines, which share its rate limiter. Create one with NewClient.
type Client struct {
	base      *url.URL
	http      *retryablehttp.Client
	limiter   *rate.Limiter
	adaptive  *adaptiveRate
	userAgent string
	maxBytes  int64
	prefetch  int

	cache       Cache
	cacheCounts cacheCounts
	clock       timeSource

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
			return nil, fmt.Errorf("gamedata: %w", err)
		}
	}

	c := &Client{
		base:      base,
		limiter:   rate.NewLimiter(cfg.rateLimit, cfg.rateBurst),
		userAgent: cfg.userAgent,
		maxBytes:  cfg.maxResponseBytes,
		prefetch:  cfg.prefetch,
		cache:     cfg.cache,
		clock:     systemTime,
	}
	user := cfg.httpClient
	if user == nil {
		user = &http.Client{}
	}
	transport := user.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	c.adaptive = newAdaptiveRate(c.limiter, cfg.adaptiveRate, cfg.logger)
	c.http = &retryablehttp.Client{
		HTTPClient: &http.Client{
			Transport:     &limitedTransport{limiter: c.limiter, adaptive: c.adaptive, next: transport},
			CheckRedirect: redirectPolicy(user.CheckRedirect),
			Jar:           user.Jar,
			Timeout:       user.Timeout,
		},
		RetryMax:     cfg.retryMax,
		RetryWaitMin: cfg.backoffMin,
		RetryWaitMax: cfg.backoffMax,
		CheckRetry:   retryPolicy(cfg.backoffMax),
		Backoff:      backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
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
	if raw == "" {
		return nil, errors.New("gamedata: empty base URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("gamedata: base URL: %w", err)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("gamedata: base URL %q: want an absolute http or https URL", raw)
	case u.Host == "":
		return nil, fmt.Errorf("gamedata: base URL %q has no host", raw)
	case u.User != nil:
		return nil, fmt.Errorf("gamedata: base URL %q carries credentials; the service needs none", u.Redacted())
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("gamedata: base URL %q has a query or fragment", raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// errLimiterDeadline is context.DeadlineExceeded, met early: the
// limiter's next slot is after the context's deadline.
var errLimiterDeadline = fmt.Errorf("%w: the rate limit allows no request before the context deadline", context.DeadlineExceeded)

// limitedTransport makes every attempt wait on the limiter, retries and
// redirects included, because it sits under retryablehttp, and shows every
// response to the adaptive rate.
type limitedTransport struct {
	limiter  *rate.Limiter
	adaptive *adaptiveRate
	next     http.RoundTripper
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	epoch := t.adaptive.currentEpoch()
	if err := t.limiter.Wait(req.Context()); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return nil, ctxErr
		}
		// The limiter refuses at once when its next slot is past the
		// context's deadline; to the caller that is the deadline.
		return nil, errLimiterDeadline
	}
	t.adaptive.sent(time.Now())
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		t.adaptive.observe(time.Now(), epoch, isThrottle(resp))
	}
	return resp, err
}

// endpoint builds the URL of an endpoint under the base URL. Each segment
// is escaped as one path segment: a "/" inside an identifier stays inside
// it.
func (c *Client) endpoint(query url.Values, segments ...string) *url.URL {
	u := *c.base
	var path, raw strings.Builder
	path.WriteString(u.Path)
	raw.WriteString(u.EscapedPath())
	for _, s := range segments {
		path.WriteString("/" + s)
		raw.WriteString("/" + url.PathEscape(s))
	}
	u.Path, u.RawPath = path.String(), raw.String()
	u.RawQuery = query.Encode()
	return &u
}

// response is a 2xx or 304 response with its whole body.
type response struct {
	status int
	header http.Header
	body   []byte
}

// send performs a GET of u with retries, header added to every attempt, and
// returns a 2xx or 304 response with its whole body read; any other status
// is an *APIError.
func (c *Client) send(ctx context.Context, u *url.URL, header http.Header) (*response, error) {
	if ctx == nil {
		return nil, errors.New("gamedata: nil context")
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("gamedata: %w", err)
	}
	for name, values := range header {
		req.Header[name] = values
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)

	// The body is read inside retryablehttp's loop, so a connection that
	// breaks mid-body is retried like one that breaks before the headers.
	var body []byte
	req.SetResponseHandler(func(resp *http.Response) error {
		b, err := readBody(resp, c.maxBytes)
		if err != nil {
			resp.Body = http.NoBody
			return err
		}
		body = b
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return nil
	})

	resp, err := c.http.Do(req)
	if resp != nil {
		defer resp.Body.Close()
	}
	if err != nil {
		return nil, requestError(req.Method, u, err)
	}
	if (resp.StatusCode >= 200 && resp.StatusCode < 300) || resp.StatusCode == http.StatusNotModified {
		return &response{status: resp.StatusCode, header: resp.Header, body: body}, nil
	}
	apiErr := &APIError{
		StatusCode: resp.StatusCode,
		Method:     req.Method,
		URL:        u.String(),
		RetryAfter: retryAfter(resp),
	}
	apiErr.Body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	return nil, apiErr
}

// requestError names the request in an error from the transport, and
// unwraps *url.Error so its cause is what errors.Is and errors.As see
// first.
func requestError(method string, u *url.URL, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("gamedata: %s %s: %w", method, u, err)
}

// readBody reads a whole body of at most limit bytes into one buffer of
// exactly its size: with a Content-Length directly, without one (a chunked
// or compressed body) through pooled chunks, so a large body is neither
// regrown nor copied more than once.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	defer resp.Body.Close()
	if n := resp.ContentLength; n > limit {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", ErrResponseTooLarge, n, limit)
	} else if n >= 0 {
		buf := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	var chunks []*[]byte
	defer func() {
		for _, c := range chunks {
			*c = (*c)[:cap(*c)] // whole again, whatever the read left of it
			chunkPool.Put(c)
		}
	}()
	var total int64
	r := io.LimitReader(resp.Body, limit+1)
	for {
		c := chunkPool.Get().(*[]byte)
		chunks = append(chunks, c)
		n, err := io.ReadFull(r, *c)
		total += int64(n)
		*c = (*c)[:n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if total > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrResponseTooLarge, limit)
	}
	buf := make([]byte, 0, total)
	for _, c := range chunks {
		buf = append(buf, *c...)
	}
	return buf, nil
}

// chunkPool holds the buffers that bodies of unknown length are read
// into.
var chunkPool = sync.Pool{New: func() any {
	b := make([]byte, 256<<10)
	return &b
}}

// getJSON performs a GET and hands the body to decode. A decode failure is
// a *DecodeError that names the URL.
func (c *Client) getJSON(ctx context.Context, u *url.URL, decode func([]byte) error) error {
	body, keep, err := c.read(ctx, u)
	if err != nil {
		return err
	}
	if err := checkJSONStart(body); err != nil {
		return &DecodeError{URL: u.String(), Index: -1, Err: err}
	}
	if err := decode(body); err != nil {
		if errors.Is(err, ErrPageOutOfRange) {
			return fmt.Errorf("gamedata: GET %s: %w", u, err)
		}
		var de *DecodeError
		if !errors.As(err, &de) {
			de = &DecodeError{Index: -1, Err: err}
		}
		de.URL = u.String()
		return de
	}
	keep()
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
		return fmt.Errorf("response is not JSON: it starts with %q", clip(trimmed[:min(len(trimmed), 16)]))
	}
	return nil
}
