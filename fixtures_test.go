package gamedata

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/fixture"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Refreshing the fixtures from a live service, from the repository root:
//
//	go test -run Fixtures -args -record -base-url https://data.example/
//
// records every route of fixtureRoutes into testdata/ (same file names)
// and testdata/manifest.json, then replays them. See testdata/README.md.
var (
	recordFlag  = flag.Bool("record", false, "TestFixtures: refresh testdata/ from the live service at -base-url, then replay it")
	baseURLFlag = flag.String("base-url", "", "TestFixtures: base URL of the live service that -record records from")
)

// replayBase is the base URL the replayed fixtures are served under. It
// carries a path prefix, so a method that drops it misses every fixture.
const replayBase = "http://fixtures.invalid" + prefix + "/"

// TestFixtures replays testdata/ through the replayer, as the endpoint
// tests do, and checks that the manifest lists exactly the routes of
// fixtureRoutes and that every fixture decodes. With -record -base-url URL
// it first records every fixture afresh from the service at URL.
func TestFixtures(t *testing.T) {
	if *recordFlag {
		if *baseURLFlag == "" {
			t.Fatal("-record needs -base-url URL, the live service to record from")
		}
		recordFixtures(t, *baseURLFlag, nil, "testdata")
	} else {
		t.Parallel()
		if *baseURLFlag != "" {
			t.Fatal("-base-url is only used with -record")
		}
	}
	replayFixtures(t, "testdata")
}

// TestFixturesRecordTwin exercises the refresh against the twin, mounted
// under a path prefix behind a front that adds volatile headers: record
// every fixture route into a temporary directory, replay it, and compare
// with what the twin serves.
func TestFixturesRecordTwin(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(40, 12, 6))
	t.Cleanup(twin.Close)
	mounted := http.StripPrefix(prefix, twin.Handler())
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Set-Cookie", "session=abc; Path=/")
		h.Set("X-Request-Id", strconv.Itoa(len(twin.Requests())))
		h.Set("Age", "3")
		h.Set("Server-Timing", "db;dur=1.5")
		mounted.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	base := front.URL + prefix + "/"

	dir := t.TempDir()
	asked := recordFixtures(t, base, front.Client().Transport, dir)

	m, err := fixture.LoadManifest(dir)
	require.NoError(t, err)
	require.Len(t, m.Fixtures, len(fixtureRoutes))
	for _, f := range m.Fixtures {
		assert.Equal(t, fixtureRoutes[f.Route], f.File, f.Route)
		assert.Equal(t, fixture.Recorded, f.Source, f.Route)
		assert.Equal(t, base, f.From, f.Route)
		assert.Equal(t, http.StatusOK, f.Status, f.Route)
		assert.NotEmpty(t, f.Date, f.Route)
		assert.Equal(t, "application/json; charset=utf-8", f.Header.Get("Content-Type"), f.Route)
		for _, h := range []string{"Date", "Set-Cookie", "X-Request-Id", "Age", "Server-Timing", "Content-Length"} {
			assert.NotContains(t, f.Header, h, "%s: volatile header kept", f.Route)
		}
		assert.Equal(t, "application/json", f.RequestHeader.Get("Accept"), f.Route)
		assert.NotContains(t, f.RequestHeader, "User-Agent", f.Route)
		if asked[f.Route] != f.Route {
			assert.Equal(t, asked[f.Route], f.Request, "%s: the request actually made is kept", f.Route)
		} else {
			assert.Empty(t, f.Request, f.Route)
		}

		// The body is kept as the twin sends it, byte for byte.
		resp, err := front.Client().Get(strings.TrimSuffix(base, "/") + asked[f.Route])
		require.NoError(t, err)
		want, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, f.File))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s: body as sent", f.Route)
	}

	replayed := replayFixtures(t, dir)
	direct := newTestClient(t, base, WithHTTPClient(front.Client()), WithRetryMax(0))
	for route, live := range asked {
		want, err := fixtureCall(context.Background(), direct, live)
		require.NoError(t, err, live)
		assert.Equal(t, want, replayed[route], "%s (recorded as %s): replayed as the twin serves it", route, live)
	}
}

// recordFixtures records every route of fixtureRoutes from the service at
// baseURL into dir, through the SDK's own calls, and returns the route
// each was recorded from. Directory, search, activity and OpenAPI routes
// are recorded as they are. A detail route names a package, server or
// organization made up for the modelled fixtures, which a service need not
// have, so it is recorded for one the service lists: the first game and
// the first server of the dashboard pages recorded, the first organization
// of the organization pages. Nothing is written unless every route is
// read with a 2xx status.
func recordFixtures(t *testing.T, baseURL string, transport http.RoundTripper, dir string) map[string]string {
	t.Helper()
	rec, err := fixture.NewRecorder(baseURL, transport)
	require.NoError(t, err)
	opts := []Option{WithHTTPClient(&http.Client{Transport: rec})}
	if transport != nil { // a test server: no need to spare it
		opts = append(opts, WithRateLimit(rate.Inf, 1))
	}
	client, err := NewClient(baseURL, opts...)
	require.NoError(t, err)
	ctx := context.Background()

	asked := map[string]string{}
	var details []string
	var ids discovered
	for _, route := range slices.Sorted(maps.Keys(fixtureRoutes)) {
		if isDetailRoute(route) {
			details = append(details, route)
			continue
		}
		v, err := fixtureCall(ctx, client, route)
		require.NoError(t, err, "recording %s", route)
		ids.from(v)
		asked[route] = route
	}
	for _, route := range details {
		live, err := ids.liveRoute(route)
		require.NoError(t, err)
		_, err = fixtureCall(ctx, client, live)
		require.NoError(t, err, "recording %s as %s", route, live)
		asked[route] = live
	}

	var entries []fixture.Entry
	for route, live := range asked {
		ex, ok := rec.Exchange(live)
		require.True(t, ok, "%s: the SDK asked for something else than %s", route, live)
		entries = append(entries, fixture.Entry{Route: route, File: fixtureRoutes[route], Exchange: ex})
	}
	require.Empty(t, rec.Outside(), "requests outside the base URL")
	require.NoError(t, fixture.Save(dir, baseURL, entries))
	return asked
}

// replayFixtures answers every route of fixtureRoutes from dir through
// the replayer and returns what the SDK decoded, by route. The manifest
// must list exactly those routes, with the same files, and the SDK must
// ask each exactly once and nothing else.
func replayFixtures(t *testing.T, dir string) map[string]any {
	t.Helper()
	rep, err := fixture.NewReplayer(dir, replayBase)
	require.NoError(t, err)
	files := map[string]string{}
	for _, f := range rep.Fixtures() {
		files[f.Route] = f.File
	}
	require.Equal(t, fixtureRoutes, files, "%s lists the routes of fixtureRoutes (endpoints_test.go); add a line for a new route, or run the refresh", filepath.Join(dir, fixture.ManifestFile))

	client := newTestClient(t, replayBase, WithHTTPClient(&http.Client{Transport: rep}), WithRetryMax(0))
	results := map[string]any{}
	for route := range fixtureRoutes {
		v, err := fixtureCall(context.Background(), client, route)
		require.NoError(t, err, "%s: %s", route, fixtureRoutes[route])
		results[route] = v
	}
	assert.Empty(t, rep.Misses(), "requests no fixture answers")
	for route := range fixtureRoutes {
		assert.Equal(t, 1, rep.Served()[route], route)
	}
	return results
}

// fixtureCall makes the SDK call that asks for route, a route as in
// fixtureRoutes, and returns its result. internal/manifest finds the
// endpoint and its path parameters; fixtureCalls says which call asks
// for it.
func fixtureCall(ctx context.Context, c *Client, route string) (any, error) {
	rawPath, rawQuery, _ := strings.Cut(route, "?")
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, err
	}
	e, args, ok := manifest.Match(rawPath)
	call := fixtureCalls[e.Path]
	if !ok || call == nil {
		return nil, fmt.Errorf("no SDK call asks for %s", route)
	}
	return call(ctx, c, args, q)
}

// sentPage is p without its Response: what the call learnt (its
// duration, the Date header) differs from one call to the next, and the
// fixtures compare what the service sent.
func sentPage[T any](p *Page[T], err error) (any, error) {
	if p != nil {
		p.Response = Response{}
	}
	return p, err
}

// fixtureCalls make, for each path of internal/manifest, the SDK call
// that asks for it, with the values of the path's parameters and the
// query.
var fixtureCalls = map[string]func(ctx context.Context, c *Client, args []string, q url.Values) (any, error){
	"/api/activity-history": func(ctx context.Context, c *Client, _ []string, q url.Values) (any, error) {
		return c.Activity.History(ctx, &ActivityOptions{Range: q.Get("range")})
	},
	"/api/analytics/organizations/{ident}": func(ctx context.Context, c *Client, args []string, _ url.Values) (any, error) {
		return c.Analytics.Organization(ctx, args[0])
	},
	"/api/analytics/packages": func(ctx context.Context, c *Client, _ []string, q url.Values) (any, error) {
		return c.Analytics.Search(ctx, &SearchOptions{Query: q.Get("q")})
	},
	"/api/analytics/packages/{kind}/{ident}": func(ctx context.Context, c *Client, args []string, _ url.Values) (any, error) {
		return c.Analytics.Package(ctx, args[0], args[1])
	},
	"/api/dashboard": func(ctx context.Context, c *Client, _ []string, q url.Values) (any, error) {
		lo, err := fixtureListOptions(q)
		if err != nil {
			return nil, err
		}
		return sentPage(c.Dashboard.List(ctx, &DashboardOptions{Kind: q.Get("kind"), ListOptions: lo}))
	},
	"/api/organizations": func(ctx context.Context, c *Client, _ []string, q url.Values) (any, error) {
		lo, err := fixtureListOptions(q)
		if err != nil {
			return nil, err
		}
		return sentPage(c.Organizations.List(ctx, &lo))
	},
	"/api/organizations/{ident}": func(ctx context.Context, c *Client, args []string, _ url.Values) (any, error) {
		return c.Organizations.Get(ctx, args[0])
	},
	"/api/packages/{kind}/{ident}": func(ctx context.Context, c *Client, args []string, _ url.Values) (any, error) {
		return c.Packages.Get(ctx, args[0], args[1])
	},
	"/api/search": func(ctx context.Context, c *Client, _ []string, q url.Values) (any, error) {
		return c.Search(ctx, &SearchOptions{Query: q.Get("q")})
	},
	"/api/servers/{id}": func(ctx context.Context, c *Client, args []string, _ url.Values) (any, error) {
		return c.Servers.Get(ctx, args[0])
	},
	"/openapi.json": func(ctx context.Context, c *Client, _ []string, _ url.Values) (any, error) {
		return c.OpenAPI(ctx)
	},
}

// fixtureListOptions reads the list options of a directory route's query.
func fixtureListOptions(q url.Values) (ListOptions, error) {
	lo := ListOptions{Sort: q.Get("sort"), Filters: q["filter"]}
	for name, n := range map[string]*int{"page": &lo.Page, "pageSize": &lo.PageSize} {
		if !q.Has(name) {
			continue
		}
		v, err := strconv.Atoi(q.Get(name))
		if err != nil {
			return ListOptions{}, err
		}
		*n = v
	}
	return lo, nil
}

// TestFixtureCallsCoverTheManifest checks that every path the SDK asks
// for has its call in fixtureCalls, and that nothing else has one.
func TestFixtureCallsCoverTheManifest(t *testing.T) {
	t.Parallel()
	var paths []string
	for _, e := range manifest.Endpoints {
		paths = append(paths, e.Path)
	}
	assert.ElementsMatch(t, paths, slices.Collect(maps.Keys(fixtureCalls)))
}

// isDetailRoute reports whether route reads one package, server or
// organization, or its analytics report: its path has parameters.
func isDetailRoute(route string) bool {
	path, _, _ := strings.Cut(route, "?")
	e, _, ok := manifest.Match(path)
	return ok && len(e.PathParams()) > 0
}

// discovered holds identifiers the service listed.
type discovered struct {
	pkg    PackageRef
	server string
	org    string
}

func (d *discovered) from(v any) {
	switch v := v.(type) {
	case *Page[DashboardEntry]:
		for _, e := range v.Items {
			switch {
			case e.IsServer():
				d.server = cmp.Or(d.server, e.ID)
			case d.pkg.Ident == "" || (d.pkg.Kind != KindGame && e.Kind == KindGame):
				d.pkg = e.PackageRef()
			}
		}
	case *Page[Organization]:
		if len(v.Items) > 0 {
			d.org = cmp.Or(d.org, v.Items[0].Ident)
		}
	}
}

// liveRoute is the detail route to record for route, with the
// identifiers the service listed: a package for a kind and an ident, a
// server for an id, an organization for an ident alone.
func (d *discovered) liveRoute(route string) (string, error) {
	path, query, _ := strings.Cut(route, "?")
	e, _, ok := manifest.Match(path)
	var what string
	var args []string
	switch params := strings.Join(e.PathParams(), " "); {
	case !ok || params == "":
		return "", fmt.Errorf("%s: not a detail route", route)
	case params == "kind ident":
		what, args = "package", []string{d.pkg.Kind, d.pkg.Ident}
	case params == "id":
		what, args = "server", []string{d.server}
	default:
		what, args = "organization", []string{d.org}
	}
	if args[len(args)-1] == "" {
		return "", fmt.Errorf("%s: no %s listed by the directories recorded", route, what)
	}
	live, _ := e.Expand(args...)
	if query != "" {
		live += "?" + query
	}
	return live, nil
}
