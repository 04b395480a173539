package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/fixture"
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
	rec, err := fixture.NewRecorder(twin.URL, twin.Client().Transport)
	require.NoError(t, err)
	c, err := gamedata.NewClient(twin.URL, gamedata.WithHTTPClient(&http.Client{Transport: rec}), gamedata.WithRateLimit(rate.Inf, 1))
	require.NoError(t, err)
	ctx := context.Background()
	spec, err := c.OpenAPI(ctx)
	require.NoError(t, err)
	v := newValidator(t, spec)

	for i, call := range calls(twin) {
		require.NoError(t, call(ctx, c), "call %d", i)
	}
	seen := rec.Exchanges()
	require.NotEmpty(t, seen)
	require.Empty(t, rec.Outside(), "requests outside the twin")
	statuses := map[int]int{}
	for _, x := range seen {
		statuses[x.Status]++
		req, err := http.NewRequest(x.Method, twin.URL+x.Route, nil)
		require.NoError(t, err)
		req.Header = x.RequestHeader
		ok, errs := v.ValidateHttpRequestResponse(req, x.Response(req))
		assert.True(t, ok, "%s %s → %d: %s", x.Method, x.Route, x.Status, describe(errs))
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
