package gamedata_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fault matrix serves every endpoint family from the twin through a
// proxy that replaces the answer to one URL with a hand-made fault, the
// first few times it is asked for or every time. What the client returns
// is compared with the twin's ground truth.

// shape is how an endpoint family answers: one response, one page of a
// directory, or a walk of a whole directory.
type shape int

const (
	shapeOne shape = iota
	shapePage
	shapeWalk
)

// The matrix's twin is small, and its directories are three pages long:
// 25 packages by 10 and 12 organizations by 5.
const (
	matrixPackages      = 25
	matrixServers       = 10
	matrixOrganizations = 12
	matrixPageSize      = 10
	matrixOrgPageSize   = 5
)

// matrixFixture is the twin behind every proxy of the matrix, and the
// identifiers the families ask for.
type matrixFixture struct {
	twin        *gamedatatest.Server
	cat         *gamedatatest.Catalog
	openAPI     []byte
	kind, ident string // a package
	serverID    string
	org         string
	query       string
}

// endpointFamily calls one endpoint and returns what it read, as JSON: the
// whole response for shapeOne, {"items": [...]} for shapePage, and for a
// walk the items it yielded, with the error that ended it.
type endpointFamily struct {
	name  string
	shape shape
	call  func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error)
	// truth is the ground truth, from the twin's catalogue. For a walk it
	// is the whole directory; the first page is its first pageSize items.
	truth    func(fx *matrixFixture) any
	pageSize int
}

var endpointFamilies = []endpointFamily{
	{
		name: "dashboard List", shape: shapePage,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			p, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{Page: 2, PageSize: matrixPageSize}})
			if err != nil {
				return nil, err
			}
			return json.Marshal(map[string]json.RawMessage{"items": entriesJSON(p.Items)})
		},
		truth: func(fx *matrixFixture) any { return pageTruth(fx.cat.Packages, 2, matrixPageSize) },
	},
	{
		name: "dashboard All", shape: shapeWalk, pageSize: matrixPageSize,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return walkJSON(c.Dashboard.All(ctx, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: matrixPageSize}}, nil))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Packages },
	},
	{
		name: "search", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Search(ctx, &gamedata.SearchOptions{Query: fx.query}))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Search(fx.query) },
	},
	{
		name: "packages Get", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Packages.Get(ctx, fx.kind, fx.ident))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Package(fx.kind, fx.ident) },
	},
	{
		name: "servers Get", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Servers.Get(ctx, fx.serverID))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Server(fx.serverID) },
	},
	{
		name: "organizations Get", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Organizations.Get(ctx, fx.org))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Organization(fx.org) },
	},
	{
		name: "organizations List", shape: shapePage,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			p, err := c.Organizations.List(ctx, &gamedata.ListOptions{Page: 2, PageSize: matrixOrgPageSize})
			if err != nil {
				return nil, err
			}
			return json.Marshal(map[string]json.RawMessage{"items": entriesJSON(p.Items)})
		},
		truth: func(fx *matrixFixture) any {
			return pageTruth(fx.cat.Organizations, 2, matrixOrgPageSize)
		},
	},
	{
		name: "organizations All", shape: shapeWalk, pageSize: matrixOrgPageSize,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return walkJSON(c.Organizations.All(ctx, &gamedata.ListOptions{PageSize: matrixOrgPageSize}, nil))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.Organizations },
	},
	{
		name: "activity", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: gamedata.Range7d})
			if err != nil {
				return nil, err
			}
			var whole struct{ Points []json.RawMessage }
			if err := json.Unmarshal(h.JSON(), &whole); err != nil || len(whole.Points) != len(h.Points) {
				return nil, fmt.Errorf("decoded %d points of %d (%v)", len(h.Points), len(whole.Points), err)
			}
			return h.JSON(), nil
		},
		truth: func(fx *matrixFixture) any { return fx.cat.ActivityHistory(gamedata.Range7d) },
	},
	{
		name: "analytics search", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Analytics.Search(ctx, &gamedata.SearchOptions{Query: fx.query}))
		},
		// The twin's analytics search is its search without servers.
		truth: func(fx *matrixFixture) any {
			var s map[string]any
			if err := json.Unmarshal(fx.cat.Search(fx.query), &s); err != nil {
				return err // compares unequal to any answer
			}
			delete(s, "servers")
			return s
		},
	},
	{
		name: "analytics package", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Analytics.Package(ctx, fx.kind, fx.ident))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.PackageReport(fx.kind, fx.ident) },
	},
	{
		name: "analytics organization", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return sent(c.Analytics.Organization(ctx, fx.org))
		},
		truth: func(fx *matrixFixture) any { return fx.cat.OrganizationReport(fx.org) },
	},
	{
		name: "openapi", shape: shapeOne,
		call: func(ctx context.Context, c *gamedata.Client, fx *matrixFixture) ([]byte, error) {
			return c.OpenAPI(ctx)
		},
		truth: func(fx *matrixFixture) any { return json.RawMessage(fx.openAPI) },
	},
}

// movedPrefix marks the target of a same-origin redirect: the proxy strips
// it and serves the real answer.
const movedPrefix = "/moved"

// faultEnv is what a fault's answer may need besides the real one.
type faultEnv struct {
	otherURL string           // a server of another host
	now      func() time.Time // the client's clock
}

// answer is a gamedatatest.Faults.Answer: it answers a faulted request,
// given the twin's real answer to it.
type answer = func(http.ResponseWriter, *http.Request, gamedatatest.Response)

// faultAnswer makes a cell's answer to a faulted request, in the cell's
// environment.
type faultAnswer func(env *faultEnv) answer

// fixed is a faultAnswer that needs nothing of the environment.
func fixed(a answer) faultAnswer { return func(*faultEnv) answer { return a } }

// The hand-made answers: what the twin's faults and
// gamedatatest.Respond cannot send (an answer made of the real one, a
// Retry-After on the cell's clock, a redirect to the request's own URL).

func statusFault(status int, retryAfter func(env *faultEnv) string) faultAnswer {
	return func(env *faultEnv) answer {
		return func(w http.ResponseWriter, _ *http.Request, _ gamedatatest.Response) {
			w.Header().Set("Content-Type", "application/json")
			if retryAfter != nil {
				w.Header().Set("Retry-After", retryAfter(env))
			}
			w.WriteHeader(status)
			w.Write([]byte(`{"error":"injected fault"}`))
		}
	}
}

// contentLengthTooLong declares a Content-Length 100 bytes longer than
// the real body, which it sends whole: the server then closes the
// connection short of what it declared.
func contentLengthTooLong(w http.ResponseWriter, _ *http.Request, a gamedatatest.Response) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(a.Body)+100))
	w.WriteHeader(http.StatusOK)
	w.Write(a.Body)
}

// gzipWhole sends the real body gzip-compressed, whole, with its
// Content-Length: a valid answer the twin does not send.
func gzipWhole(w http.ResponseWriter, _ *http.Request, a gamedatatest.Response) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(a.Body)
	zw.Close()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}

// matrixStall is the stall timeout of the rows that stall. The client runs
// on a fake clock that the cell moves on by matrixStall when the server
// stalls, and at no other time: a stalled attempt is abandoned whatever
// the machine's speed, and a healthy one never is.
const matrixStall = 1500 * time.Millisecond

// stallCheck accepts the error of an attempt abandoned as stalled.
func stallCheck(t *testing.T, err error) {
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
	assert.ErrorContains(t, err, "connection stalled")
	var de *gamedata.DecodeError
	assert.False(t, errors.As(err, &de), "a stalled body is never decoded: %v", err)
}

func okBody(contentType string, body func(a gamedatatest.Response) []byte) faultAnswer {
	return fixed(func(w http.ResponseWriter, _ *http.Request, a gamedatatest.Response) {
		b := body(a)
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	})
}

func redirectTo(target func(r *http.Request, env *faultEnv) string) faultAnswer {
	return func(env *faultEnv) answer {
		return func(w http.ResponseWriter, r *http.Request, _ gamedatatest.Response) {
			http.Redirect(w, r, target(r, env), http.StatusFound)
		}
	}
}

// otherPage is the same URL with another page: 1 for page 2.
func otherPage(r *http.Request, _ *faultEnv) string {
	u := *r.URL
	q := u.Query()
	q.Set("page", "1")
	u.RawQuery = q.Encode()
	return u.RequestURI()
}

// matrixCap is the body size limit of the over-the-cap rows: larger than
// every real body of the matrix, smaller than the padded one.
const matrixCap = 256 << 10

// overCap is the real body padded with white space to one byte over
// matrixCap: valid JSON that only the cap refuses.
func overCap(a gamedatatest.Response) []byte {
	return append(bytes.Clone(a.Body), bytes.Repeat([]byte(" "), matrixCap+1-len(a.Body))...)
}

func overCapChunked(w http.ResponseWriter, _ *http.Request, a gamedatatest.Response) {
	b := overCap(a)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	for len(b) > 0 {
		n := min(len(b), 16<<10)
		w.Write(b[:n])
		w.(http.Flusher).Flush()
		b = b[n:]
	}
}

// nestingBomb is 100,000 levels of arrays inside an object: valid JSON
// that no decoder should descend.
var nestingBomb = []byte(`{"bomb":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`)

const htmlErrorPage = `<!DOCTYPE html>
<html><head><title>502 Bad Gateway</title></head>
<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>
`

// outcome is what a row expects of the client.
type outcome int

const (
	// recovered: the call returns the ground truth.
	recovered outcome = iota + 1
	// typedError: the call fails with the error check accepts; a walk
	// yields page 1, then a *PageError for page 2.
	typedError
	// endOfWalk: a walk yields page 1 and ends without an error; a
	// single page fails with the error check accepts.
	endOfWalk
)

func (o outcome) String() string {
	return map[outcome]string{recovered: "recovered", typedError: "typed error", endOfWalk: "end of walk"}[o]
}

type faultRow struct {
	name string
	// kind is the twin's fault a faulted request meets, with retryAfter
	// as its Faults.RetryAfter; serve, for the faults the twin does not
	// make, answers it by hand instead.
	kind       gamedatatest.Fault
	retryAfter time.Duration
	serve      faultAnswer
	// times is how many attempts of the faulted URL meet the fault; 0
	// means every attempt.
	times int
	// attempts is how many requests for the faulted URL the server sees.
	attempts int
	want     outcome
	// check inspects the error of a typedError or endOfWalk row.
	check func(t *testing.T, err error)
	opts  []gamedata.Option
	// waits, when set, checks the waits the client logged before its
	// retries.
	waits func(t *testing.T, waits []time.Duration)
	// expire ends the call's context, as a deadline passing, when the
	// server stalls, instead of moving the client's clock.
	expire bool
	// tls serves the proxy over https.
	tls bool
	// directoriesOnly leaves out the single-response families.
	directoriesOnly bool
	// otherHost starts a server of another host, which must see no
	// request.
	otherHost bool
}

func apiErrorCheck(status int, retryAfter time.Duration, is error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		var apiErr *gamedata.APIError
		if assert.ErrorAs(t, err, &apiErr) {
			assert.Equal(t, status, apiErr.StatusCode)
			assert.Equal(t, retryAfter, apiErr.RetryAfter)
			assert.Contains(t, string(apiErr.Body), `{"error":"injected fault`, "the body survives the last retry")
		}
		if is != nil {
			assert.ErrorIs(t, err, is)
		}
	}
}

// decodeErrorCheck accepts a *DecodeError that says one of why.
func decodeErrorCheck(why ...string) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		var de *gamedata.DecodeError
		if assert.ErrorAs(t, err, &de) {
			assert.NotEmpty(t, de.URL)
		}
		for _, w := range why {
			if strings.Contains(err.Error(), w) {
				return
			}
		}
		t.Errorf("error %q says none of %q", err, why)
	}
}

func isCheck(target error) func(*testing.T, error) {
	return func(t *testing.T, err error) { assert.ErrorIs(t, err, target) }
}

// notDecodedCheck accepts a transport error for a body that broke off: it
// must not be mistaken for a decoding problem of partial data.
func notDecodedCheck(t *testing.T, err error) {
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	var de *gamedata.DecodeError
	assert.False(t, errors.As(err, &de), "a broken body is never decoded: %v", err)
}

var faultRows = []faultRow{
	{name: "500", kind: gamedatatest.Fault500, times: 2, attempts: 3, want: recovered},
	{name: "502", kind: gamedatatest.Fault502, times: 2, attempts: 3, want: recovered},
	{name: "503", kind: gamedatatest.Fault503, times: 2, attempts: 3, want: recovered},
	{name: "504", serve: statusFault(504, nil), times: 2, attempts: 3, want: recovered},
	{
		name: "503 on every attempt", kind: gamedatatest.Fault503, attempts: 5, want: typedError,
		check: apiErrorCheck(503, 0, nil),
	},
	{
		name: "429 Retry-After in seconds", kind: gamedatatest.Fault429, retryAfter: time.Second,
		times: 1, attempts: 2, want: recovered,
		opts:  []gamedata.Option{gamedata.WithBackoff(time.Millisecond, 5*time.Second)},
		waits: waitsOf(time.Second),
	},
	{
		// The client reads the date on its clock, which stands still: a
		// second ahead is a wait of a second.
		name: "429 Retry-After as an HTTP date",
		serve: statusFault(429, func(env *faultEnv) string {
			return env.now().Add(time.Second).UTC().Format(http.TimeFormat)
		}),
		times: 1, attempts: 2, want: recovered,
		opts:  []gamedata.Option{gamedata.WithBackoff(time.Millisecond, 5*time.Second)},
		waits: waitsOf(time.Second),
	},
	{
		name: "429 without Retry-After", kind: gamedatatest.Fault429, times: 2, attempts: 3, want: recovered,
		waits: backoffWaits(2), // the backoff, not a wait of its own
	},
	{
		name: "429 Retry-After beyond the backoff maximum", kind: gamedatatest.Fault429, retryAfter: 120 * time.Second,
		attempts: 1, want: typedError, check: apiErrorCheck(429, 120*time.Second, gamedata.ErrRateLimited),
		waits: waitsOf(), // fails at once, no wait for the 120 s asked for
	},
	{name: "connection reset before headers", kind: gamedatatest.FaultReset, times: 2, attempts: 3, want: recovered},
	{name: "connection closed mid-body", kind: gamedatatest.FaultTruncate, times: 2, attempts: 3, want: recovered},
	{
		name: "connection closed mid-body on every attempt", kind: gamedatatest.FaultTruncate, attempts: 5, want: typedError,
		check: notDecodedCheck,
	},
	{name: "Content-Length longer than the body", serve: fixed(contentLengthTooLong), times: 2, attempts: 3, want: recovered},
	{
		name: "Content-Length longer than the body on every attempt", serve: fixed(contentLengthTooLong), attempts: 5,
		want: typedError, check: notDecodedCheck,
	},
	{name: "chunked body cut mid-stream", kind: gamedatatest.FaultChunkedCut, times: 2, attempts: 3, want: recovered},
	{
		name: "chunked body cut mid-stream, retries off", kind: gamedatatest.FaultChunkedCut, attempts: 1, want: typedError,
		check: notDecodedCheck, opts: []gamedata.Option{gamedata.WithRetryMax(0)},
	},
	{name: "gzip body cut mid-stream", kind: gamedatatest.FaultGzipCut, times: 2, attempts: 3, want: recovered},
	{
		name: "gzip body cut mid-stream, retries off", kind: gamedatatest.FaultGzipCut, attempts: 1, want: typedError,
		check: notDecodedCheck, opts: []gamedata.Option{gamedata.WithRetryMax(0)},
	},
	{
		name: "stall before the headers", kind: gamedatatest.FaultStallHeaders, times: 1, attempts: 2, want: recovered,
		opts: []gamedata.Option{gamedata.WithStallTimeout(matrixStall)},
	},
	{
		name: "stall before the headers, retries off", kind: gamedatatest.FaultStallHeaders, attempts: 1, want: typedError,
		check: stallCheck, opts: []gamedata.Option{gamedata.WithStallTimeout(matrixStall), gamedata.WithRetryMax(0)},
	},
	{
		name: "stall mid-body", kind: gamedatatest.FaultStallBody, times: 1, attempts: 2, want: recovered,
		opts: []gamedata.Option{gamedata.WithStallTimeout(matrixStall)},
	},
	{
		name: "stall mid-body, retries off", kind: gamedatatest.FaultStallBody, attempts: 1, want: typedError,
		check: stallCheck, opts: []gamedata.Option{gamedata.WithStallTimeout(matrixStall), gamedata.WithRetryMax(0)},
	},
	{
		name:     "200 with malformed JSON",
		serve:    okBody("application/json", func(a gamedatatest.Response) []byte { return a.Body[:len(a.Body)/2] }),
		attempts: 1, want: typedError, check: decodeErrorCheck("unexpected end of JSON input", "invalid character", "OpenAPI description is not valid JSON"),
	},
	{
		name:     "200 with an HTML error page",
		serve:    okBody("text/html", func(gamedatatest.Response) []byte { return []byte(htmlErrorPage) }),
		attempts: 1, want: typedError, check: decodeErrorCheck("not JSON"),
	},
	{
		name:     "200 with an empty body",
		serve:    okBody("application/json", func(gamedatatest.Response) []byte { return nil }),
		attempts: 1, want: typedError, check: decodeErrorCheck("empty response body"),
	},
	{
		name: "slow body past the context deadline", kind: gamedatatest.FaultStallBody, expire: true, attempts: 1, want: typedError,
		check: isCheck(context.DeadlineExceeded),
	},
	{
		name: "redirect loop", serve: redirectTo(func(r *http.Request, _ *faultEnv) string { return r.URL.RequestURI() }),
		attempts: 10, want: typedError,
		check: func(t *testing.T, err error) { assert.ErrorContains(t, err, "stopped after 10 redirects") },
	},
	{
		name:  "same-origin redirect",
		serve: redirectTo(func(r *http.Request, _ *faultEnv) string { return movedPrefix + r.URL.RequestURI() }),
		times: 0, attempts: 1, want: recovered,
	},
	{
		name: "redirect to another host", otherHost: true,
		serve:    redirectTo(func(r *http.Request, env *faultEnv) string { return env.otherURL + r.URL.RequestURI() }),
		attempts: 1, want: typedError, check: isCheck(gamedata.ErrRedirectRefused),
	},
	{
		name: "https-to-http redirect", tls: true,
		serve:    redirectTo(func(r *http.Request, _ *faultEnv) string { return "http://" + r.Host + r.URL.RequestURI() }),
		attempts: 1, want: typedError, check: isCheck(gamedata.ErrRedirectRefused),
	},
	{
		name: "redirect to another page", directoriesOnly: true, serve: redirectTo(otherPage),
		attempts: 1, want: endOfWalk, check: isCheck(gamedata.ErrPageOutOfRange),
	},
	{
		name: "body over the size cap (Content-Length)", serve: okBody("application/json", overCap),
		attempts: 1, want: typedError, check: isCheck(gamedata.ErrResponseTooLarge),
		opts: []gamedata.Option{gamedata.WithMaxResponseBytes(matrixCap)},
	},
	{
		name: "body over the size cap (chunked)", serve: fixed(overCapChunked),
		attempts: 1, want: typedError, check: isCheck(gamedata.ErrResponseTooLarge),
		opts: []gamedata.Option{gamedata.WithMaxResponseBytes(matrixCap)},
	},
	{
		// The same padded bodies, exactly at a cap one byte larger, are
		// read whole: the rows above fail on the cap alone.
		name: "body at the size cap", serve: okBody("application/json", overCap),
		attempts: 1, want: recovered,
		opts: []gamedata.Option{gamedata.WithMaxResponseBytes(matrixCap + 1)},
	},
	{name: "gzip-encoded body", serve: fixed(gzipWhole), attempts: 1, want: recovered},
	{
		name:     "JSON nesting bomb of 100k levels",
		serve:    okBody("application/json", func(gamedatatest.Response) []byte { return nestingBomb }),
		attempts: 1, want: typedError, check: decodeErrorCheck("exceeded max depth", "OpenAPI description is not valid JSON"),
	},
}

// newMatrixFixture starts a twin of the matrix's size, with opts.
func newMatrixFixture(t *testing.T, opts ...gamedatatest.Option) *matrixFixture {
	t.Helper()
	opts = append([]gamedatatest.Option{gamedatatest.WithSize(matrixPackages, matrixServers, matrixOrganizations)}, opts...)
	twin := gamedatatest.NewServer(opts...)
	t.Cleanup(twin.Close)
	cat := twin.Catalog()
	doc, err := os.ReadFile("gamedatatest/openapi.json")
	require.NoError(t, err)
	pkg := cat.Entries(url.Values{"kind": {gamedata.KindGame}})[0]
	fx := &matrixFixture{
		twin: twin, cat: cat, openAPI: doc,
		kind: pkg.Kind, ident: pkg.Ident,
		serverID: cat.Servers[0].ID,
		org:      cat.Organizations[0].Ident,
		query:    "a",
	}
	require.Len(t, cat.Packages, matrixPackages)
	require.Len(t, cat.Organizations, matrixOrganizations)
	var s struct{ Packages, Organizations []json.RawMessage }
	require.NoError(t, json.Unmarshal(cat.Search(fx.query), &s))
	require.NotEmpty(t, s.Packages, "the search query must match")
	require.NotEmpty(t, s.Organizations, "the search query must match")
	return fx
}

// faultProxy serves the twin through gamedatatest.InjectFaults, which
// answers a faulted URL with row's fault for the first row.times attempts
// (every attempt when 0): the twin's fault of kind row.kind, or row.serve's
// answer. It returns the server, the attempts of each faulted URL so far,
// and the channel that says when an answer has started to stall.
func faultProxy(t *testing.T, fx *matrixFixture, row faultRow, fam endpointFamily, env *faultEnv) (*httptest.Server, func() map[string]int, <-chan struct{}) {
	t.Helper()
	real := http.NewServeMux()
	real.Handle("/", fx.twin.Handler())
	real.Handle(movedPrefix+"/", http.StripPrefix(movedPrefix, fx.twin.Handler()))
	// The fault meets every request of a single-response family, and page
	// 2 of a directory, so that a walk shows what it yielded before the
	// fault and where it stopped.
	faulted := func(path string, query url.Values) bool {
		return !strings.HasPrefix(path, movedPrefix) && (fam.shape == shapeOne || query.Get("page") == "2")
	}
	faults := gamedatatest.Faults{
		Rate:     1,
		Attempts: row.times,
		Match:    func(r *http.Request) bool { return faulted(r.URL.Path, r.URL.Query()) },
	}
	if row.kind != 0 {
		faults.Kinds, faults.RetryAfter = []gamedatatest.Fault{row.kind}, row.retryAfter
	} else {
		faults.Answer = row.serve(env)
	}
	fi := gamedatatest.InjectFaults(real, faults)
	h, stalled := gamedata.StallSignals(t, fi, row.kind)
	var srv *httptest.Server
	if row.tls {
		srv = httptest.NewTLSServer(h)
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	t.Cleanup(fi.Close) // first: no stalled answer holds the server open
	return srv, func() map[string]int {
		attempts := map[string]int{}
		for _, r := range fi.Requests() {
			if faulted(r.Path, r.Query) {
				attempts[r.Path+"?"+r.Query.Encode()]++
			}
		}
		return attempts
	}, stalled
}

// sent is a call's result as the service sent it, or its error alone.
func sent[T interface{ JSON() json.RawMessage }](v T, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return v.JSON(), nil
}

// matrixCellsAtOnce bounds the cells of the matrix that run at once.
const matrixCellsAtOnce = 48

// TestFaultMatrix injects every fault of faultRows into every endpoint
// family and checks the outcome: the ground truth after retries, a clean
// typed error (never partial data), or the end of a walk.
//
// The cells run at once in the test's own goroutines, not as parallel
// subtests: the rows that wait for Retry-After wait together, and the
// matrix does not queue dozens of subtests behind the package's other
// parallel tests. Slow: about 1.5 s under -race, most of it the rows
// that wait out a Retry-After of a second, together.
func TestFaultMatrix(t *testing.T) {
	t.Parallel()
	fx := newMatrixFixture(t)
	truths := map[string]any{}
	for _, fam := range endpointFamilies {
		truths[fam.name] = asJSON(t, fam.truth(fx))
	}
	slots := make(chan struct{}, matrixCellsAtOnce)
	var rows sync.WaitGroup
	for _, row := range faultRows {
		rows.Go(func() {
			t.Run(row.name, func(t *testing.T) {
				var cells sync.WaitGroup
				for _, fam := range endpointFamilies {
					if row.directoriesOnly && fam.shape == shapeOne {
						continue
					}
					cells.Go(func() {
						slots <- struct{}{}
						defer func() { <-slots }()
						t.Run(fam.name, func(t *testing.T) { runFaultCell(t, fx, row, fam, truths[fam.name]) })
					})
				}
				cells.Wait()
			})
		})
	}
	rows.Wait()
}

// runFaultCell calls fam through a proxy that injects row's fault, and
// checks the outcome against truth, fam's ground truth as asJSON gives it.
// The client runs on a fake clock; the call's context ends only when an
// expire row stalls, or after DeadlockGuard.
func runFaultCell(t *testing.T, fx *matrixFixture, row faultRow, fam endpointFamily, truth any) {
	clk := gamedata.NewFakeClock()
	env := &faultEnv{now: clk.Now}
	var other *gamedatatest.Server // another host, which must never be asked
	if row.otherHost {
		other = gamedatatest.NewServer(gamedatatest.WithSize(1, 1, 1))
		t.Cleanup(other.Close)
		env.otherURL = other.URL
	}
	srv, attempts, stalled := faultProxy(t, fx, row, fam, env)
	waits := &retryWaits{}
	opts := append([]gamedata.Option{gamedata.WithFakeClock(clk), gamedata.WithHooks(gamedata.Hooks{OnRetry: waits.onRetry})}, row.opts...)
	if row.tls {
		opts = append(opts, gamedata.WithHTTPClient(srv.Client()))
	}
	c := gamedata.NewTestClient(t, srv.URL, opts...)

	guarded, cancel := context.WithTimeout(context.Background(), gamedata.DeadlockGuard)
	defer cancel()
	ctx := newExpiringContext(guarded)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-stalled:
				if row.expire {
					ctx.expire()
				} else {
					clk.Advance(matrixStall)
				}
			case <-done:
				return
			}
		}
	}()
	got, err := fam.call(ctx, c, fx)

	want := row.want
	if want == endOfWalk && fam.shape != shapeWalk {
		want = typedError
	}
	checkOutcome(t, row, fam, want, truth, got, err)

	counts := attempts()
	if assert.Len(t, counts, 1, "one URL meets the fault") {
		for uri, n := range counts {
			assert.Equal(t, row.attempts, n, "requests for %s", uri)
		}
	}
	if other != nil {
		for _, r := range other.Requests() {
			t.Errorf("the other host got a request for %s", r.Path)
		}
	}
	if row.waits != nil {
		row.waits(t, waits.all())
	}
	t.Logf("cell %s | %s | %s | %d request(s) | waits %v | err: %v", row.name, fam.name, want, row.attempts, waits.all(), err)
}

// checkOutcome checks a cell's result against the outcome it wants: the
// ground truth, the first page of a walk, or row's typed error.
func checkOutcome(t *testing.T, row faultRow, fam endpointFamily, want outcome, truth, got any, err error) {
	t.Helper()
	switch want {
	case recovered:
		if assert.NoError(t, err) {
			assert.Equal(t, truth, asJSON(t, got), "the ground truth")
		}
	case endOfWalk: // a walk only: single pages fail, as typedError
		assert.NoError(t, err, "the walk ends at the redirect without an error")
		assert.Equal(t, truth.([]any)[:fam.pageSize], asJSON(t, got), "the walk yields page 1, then ends")
	case typedError:
		require.Error(t, err)
		row.check(t, err)
		if fam.shape != shapeWalk {
			assert.Nil(t, got, "no partial result")
			return
		}
		assert.Equal(t, truth.([]any)[:fam.pageSize], asJSON(t, got), "the walk yields page 1, then stops")
		var pe *gamedata.PageError
		if assert.ErrorAs(t, err, &pe) {
			assert.Equal(t, 2, pe.Page)
		}
	}
}

// retryWaits keeps the wait before each retry, as Hooks.OnRetry reports
// it: the wait the client then sleeps.
type retryWaits struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (w *retryWaits) onRetry(_ context.Context, e gamedata.RetryEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.waits = append(w.waits, e.Wait)
}

func (w *retryWaits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.waits)
}

// waitsOf checks that the client waited exactly want before its retries.
func waitsOf(want ...time.Duration) func(*testing.T, []time.Duration) {
	return func(t *testing.T, waits []time.Duration) {
		assert.Equal(t, want, waits, "the waits before the retries")
	}
}

// backoffWaits checks that the client waited n times, each time no more
// than the client's backoff for that retry.
func backoffWaits(n int) func(*testing.T, []time.Duration) {
	return func(t *testing.T, waits []time.Duration) {
		if assert.Len(t, waits, n, "one wait before each retry") {
			for i, w := range waits {
				assert.LessOrEqual(t, w, gamedata.DefaultBackoffMin<<i, "the backoff of retry %d", i+1)
			}
		}
	}
}

// expiringContext is a context whose deadline passes when the test says,
// not at a time on the wall: once expired, its Err is
// context.DeadlineExceeded. It ends too when its parent does.
type expiringContext struct {
	context.Context
	done chan struct{}
	once sync.Once
}

func newExpiringContext(parent context.Context) *expiringContext {
	c := &expiringContext{Context: parent, done: make(chan struct{})}
	context.AfterFunc(parent, c.expire)
	return c
}

func (c *expiringContext) Done() <-chan struct{} { return c.done }

func (c *expiringContext) Err() error {
	select {
	case <-c.done:
		if err := c.Context.Err(); err != nil {
			return err
		}
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func (c *expiringContext) expire() { c.once.Do(func() { close(c.done) }) }
