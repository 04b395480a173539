package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// calls are every SDK endpoint over a fault-free matrix of parameters:
// kinds, sorts and filters known and unknown, page sizes, pages in range
// and past the end, ranges known and unknown, searches with and without a
// query.
func calls(twin *gamedatatest.Server) []func(context.Context, *gamedata.Client) error {
	cat := twin.Catalog()
	pkg, srv, org := cat.Packages[0], cat.Servers[0], cat.Organizations[0]
	kind, ident := pkg.Kind, pkg.Ident
	var out []func(context.Context, *gamedata.Client) error
	for _, k := range []string{"", gamedata.KindGame, "mod", "server", "no-such-kind"} {
		for _, sort := range []string{"", "players", "updated", "no-such-sort"} {
			for _, page := range []int{1, 2, 999} {
				opts := &gamedata.DashboardOptions{Kind: k, ListOptions: gamedata.ListOptions{Sort: sort, Page: page, PageSize: 50, Filters: []string{"online", "no-such-filter"}}}
				out = append(out, func(ctx context.Context, c *gamedata.Client) error {
					_, err := c.Dashboard.List(ctx, opts)
					if errors.Is(err, gamedata.ErrPageOutOfRange) {
						return nil // redirected past the end: the exchanges still count
					}
					return err
				})
			}
		}
	}
	out = append(out,
		func(ctx context.Context, c *gamedata.Client) error {
			for _, err := range c.Dashboard.All(ctx, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: 100}}, nil) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		func(ctx context.Context, c *gamedata.Client) error {
			for _, err := range c.Organizations.All(ctx, &gamedata.ListOptions{Sort: "packages", Filters: []string{"verified"}, PageSize: 7}, nil) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Organizations.List(ctx, &gamedata.ListOptions{Sort: "no-such-sort"})
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error { _, err := c.Search(ctx, nil); return err },
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Search(ctx, &gamedata.SearchOptions{Query: "miner"})
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Packages.Get(ctx, kind, ident)
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			if _, err := c.Packages.Get(ctx, kind, "no-such-package"); !errors.Is(err, gamedata.ErrNotFound) {
				return fmt.Errorf("want a 404, got %v", err)
			}
			return nil
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Servers.Get(ctx, srv.ID)
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Organizations.Get(ctx, org.Ident)
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Analytics.Search(ctx, &gamedata.SearchOptions{Query: "neon"})
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Analytics.Package(ctx, kind, ident)
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Analytics.Organization(ctx, org.Ident)
			return err
		},
		func(ctx context.Context, c *gamedata.Client) error { _, err := c.OpenAPI(ctx); return err },
	)
	for _, rng := range []string{"", "24h", gamedata.Range7d, "30d", "1y", "no-such-range"} {
		out = append(out, func(ctx context.Context, c *gamedata.Client) error {
			_, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: rng})
			return err
		})
	}
	return out
}

// TestTwinConformsToItsDocument validates every request the SDK sends and
// every response the twin gives against the twin's published document.
func TestTwinConformsToItsDocument(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(60, 12, 8))
	defer twin.Close()
	var rec recorder
	c, err := gamedata.NewClient(twin.URL, gamedata.WithHTTPClient(twin.Client()), gamedata.WithMiddleware(rec.record), gamedata.WithRateLimit(rate.Inf, 1))
	require.NoError(t, err)
	ctx := context.Background()
	spec, err := c.OpenAPI(ctx)
	require.NoError(t, err)
	v := newValidator(t, spec)

	for i, call := range calls(twin) {
		require.NoError(t, call(ctx, c), "call %d", i)
	}
	seen := rec.exchanges()
	require.NotEmpty(t, seen)
	base, err := url.Parse(twin.URL)
	require.NoError(t, err)
	statuses := map[int]int{}
	for _, x := range seen {
		require.Equal(t, base.Host, x.req.URL.Host, "a request outside the twin: %s", x.req.URL)
		statuses[x.status]++
		ok, errs := v.ValidateHttpRequestResponse(x.req, x.response())
		assert.True(t, ok, "%s %s → %d: %s", x.req.Method, x.req.URL.RequestURI(), x.status, describe(errs))
	}
	t.Logf("%d exchanges validated, by status: %v", len(seen), statuses)
	assert.Positive(t, statuses[http.StatusFound], "the matrix reaches a redirected page")
	assert.Positive(t, statuses[http.StatusNotFound], "the matrix reaches a 404")
}

// TestValidatorRefusesAWrongResponse shows the check can fail: an activity
// point of six elements, a negative count and an unknown member type are
// each refused.
func TestValidatorRefusesAWrongResponse(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	c, err := gamedata.NewClient(twin.URL)
	require.NoError(t, err)
	spec, err := c.OpenAPI(context.Background())
	require.NoError(t, err)
	v := newValidator(t, spec)
	for _, tt := range []struct{ path, body string }{
		{"/api/activity-history?range=7d", `{"range":"7d","points":[[1763200800000,12,0,null,null,0]]}`},
		{"/api/dashboard?page=1", `{"items":[],"pagination":{"page":1,"pageSize":20,"total":-3,"totalPages":1,"hasNext":false},"sort":"ident","filters":[]}`},
	} {
		req, err := http.NewRequest(http.MethodGet, twin.URL+tt.path, nil)
		require.NoError(t, err)
		resp := &http.Response{
			StatusCode: http.StatusOK,
			Header:     http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			Body:       io.NopCloser(strings.NewReader(tt.body)),
			Request:    req,
		}
		ok, errs := v.ValidateHttpResponse(req, resp)
		assert.False(t, ok, "%s: %s is refused", tt.path, tt.body)
		assert.NotEmpty(t, errs)
	}
}

func newValidator(t *testing.T, spec []byte) validator.Validator {
	t.Helper()
	doc, err := libopenapi.NewDocument(spec)
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, docErrs := v.ValidateDocument()
	require.True(t, ok, "the document itself: %s", describe(docErrs))
	return v
}

func describe[E error](errs []E) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteString("; ")
	}
	return b.String()
}

// recorder keeps every attempt the SDK sends and what came back, through
// the SDK's own middleware, which sees each attempt: retries, and each
// redirect the client follows, so the 302 of a page past the end is kept
// beside the page it leads to.
type recorder struct {
	mu   sync.Mutex
	kept []exchange
}

// exchange is one attempt: its request, without a body (the SDK sends
// none), and its response, the body read whole.
type exchange struct {
	req    *http.Request
	status int
	header http.Header
	body   []byte
}

// record is the recorder's gamedata.Middleware. It reads the response's
// body whole and hands the SDK a fresh reader of it, as the client would
// have read it.
func (r *recorder) record(req *http.Request, next gamedata.Next) (*http.Response, error) {
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kept = append(r.kept, exchange{req: req.Clone(context.Background()), status: resp.StatusCode, header: resp.Header.Clone(), body: body})
	return resp, nil
}

// exchanges are the attempts kept, in the order their responses arrived.
func (r *recorder) exchanges() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.kept)
}

// response is the exchange's response, with a fresh reader of its body.
func (x exchange) response() *http.Response {
	return &http.Response{
		StatusCode:    x.status,
		Header:        x.header.Clone(),
		Body:          io.NopCloser(bytes.NewReader(x.body)),
		ContentLength: int64(len(x.body)),
		Request:       x.req,
	}
}
