package main

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// apiRoute is a path of the service that api reads, and the SDK's call
// that reads it: api sends nothing the SDK does not own, so a raw read
// gets the client's retries, rate limit, cache, bounds and redirect rules,
// and will get whatever the factory's client is given later (a recorder).
type apiRoute struct {
	// template is the route as the SDK names it, such as
	// "/api/packages/{kind}/{ident}".
	template string
	// own are the query parameters the SDK's options send for the call,
	// each read into its typed field; every other one is sent as given.
	own []string
	// read reads the path with args in place of the template's
	// parameters and query q, and returns the body as sent.
	read func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error)
	// walk, for a directory, walks every page from the one q names
	// through the SDK's walk and its guards; nil for any other path.
	walk func(ctx context.Context, c *gamedata.Client, q url.Values, wo *gamedata.WalkOptions, opts ...gamedata.CallOption) iter.Seq2[gamedata.Fields, error]
}

// listParams are the parameters of a directory's page that
// gamedata.ListOptions sends.
var listParams = []string{"sort", "page", "pageSize", "filter"}

// apiRoutes are the paths api reads: the service's ten endpoints and its
// OpenAPI description.
var apiRoutes = []apiRoute{
	{template: "/openapi.json", read: func(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
		return c.OpenAPI(ctx, queryOptions(q)...)
	}},
	{template: "/api/dashboard", own: append([]string{"kind"}, listParams...), read: readDashboard, walk: walkDashboard},
	{template: "/api/organizations", own: listParams, read: readOrganizations, walk: walkOrganizations},
	{template: "/api/search", own: []string{"q"}, read: func(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Search(ctx, &gamedata.SearchOptions{Query: q.Get("q"), Params: without(q, "q")})
		return jsonOf(r, err)
	}},
	{template: "/api/packages/{kind}/{ident}", read: func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Packages.Get(ctx, args[0], args[1], queryOptions(q)...)
		return jsonOf(r, err)
	}},
	{template: "/api/servers/{id}", read: func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Servers.Get(ctx, args[0], queryOptions(q)...)
		return jsonOf(r, err)
	}},
	{template: "/api/organizations/{ident}", read: func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Organizations.Get(ctx, args[0], queryOptions(q)...)
		return jsonOf(r, err)
	}},
	{template: "/api/activity-history", own: []string{"range"}, read: func(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: q.Get("range"), Params: without(q, "range")})
		return jsonOf(r, err)
	}},
	{template: "/api/analytics/packages", own: []string{"q"}, read: func(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Analytics.Search(ctx, &gamedata.SearchOptions{Query: q.Get("q"), Params: without(q, "q")})
		return jsonOf(r, err)
	}},
	{template: "/api/analytics/packages/{kind}/{ident}", read: func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Analytics.Package(ctx, args[0], args[1], queryOptions(q)...)
		return jsonOf(r, err)
	}},
	{template: "/api/analytics/organizations/{ident}", read: func(ctx context.Context, c *gamedata.Client, args []string, q url.Values) (json.RawMessage, error) {
		r, err := c.Analytics.Organization(ctx, args[0], queryOptions(q)...)
		return jsonOf(r, err)
	}},
}

// routesHelp lists the paths api reads, for its help.
func routesHelp() string {
	var b strings.Builder
	for _, r := range apiRoutes {
		b.WriteString("  " + r.template)
		if r.walk != nil {
			b.WriteString("  (a directory, which --paginate walks)")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// match reports whether seg, the segments of a URL's escaped path, are
// the route's, and returns the values of its parameters, still escaped.
func (r *apiRoute) match(seg []string) ([]string, bool) {
	tmpl := strings.Split(r.template, "/")
	if len(tmpl) != len(seg) {
		return nil, false
	}
	var args []string
	for i, t := range tmpl {
		switch {
		case strings.HasPrefix(t, "{"):
			args = append(args, seg[i])
		case t != seg[i]:
			return nil, false
		}
	}
	return args, true
}

// keepsBody is what every SDK call api makes returns: a value that keeps
// the whole body as sent.
type keepsBody interface{ JSON() json.RawMessage }

// jsonOf is the body r keeps, or err.
func jsonOf[R keepsBody](r R, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return r.JSON(), nil
}

// queryOptions sends q as it is, for a call that has no query of its own.
func queryOptions(q url.Values) []gamedata.CallOption {
	var opts []gamedata.CallOption
	for name, values := range q {
		for _, v := range values {
			opts = append(opts, gamedata.WithQuery(name, v))
		}
	}
	return opts
}

// without is q without the parameters names, which a call's options send
// from their typed fields.
func without(q url.Values, names ...string) url.Values {
	rest := url.Values{}
	for name, values := range q {
		if !slices.Contains(names, name) {
			rest[name] = values
		}
	}
	return rest
}

// pageOptions are the options of the directory page q names, every
// parameter but the page's own in Params; q's paging was checked
// (checkOwn).
func pageOptions(q url.Values, others ...string) gamedata.ListOptions {
	page, _ := strconv.Atoi(q.Get("page"))
	size, _ := strconv.Atoi(q.Get("pageSize"))
	return gamedata.ListOptions{Sort: q.Get("sort"), Page: page, PageSize: size, Filters: q["filter"],
		Params: without(q, append(others, listParams...)...)}
}

func dashboardOptions(q url.Values) *gamedata.DashboardOptions {
	return &gamedata.DashboardOptions{Kind: q.Get("kind"), ListOptions: pageOptions(q, "kind")}
}

func readDashboard(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
	p, err := c.Dashboard.List(ctx, dashboardOptions(q))
	return jsonOf(p, err)
}

func walkDashboard(ctx context.Context, c *gamedata.Client, q url.Values, wo *gamedata.WalkOptions, opts ...gamedata.CallOption) iter.Seq2[gamedata.Fields, error] {
	return fieldsOf(c.Dashboard.All(ctx, dashboardOptions(q), wo, opts...), func(e gamedata.DashboardEntry) gamedata.Fields { return e.Fields })
}

func readOrganizations(ctx context.Context, c *gamedata.Client, _ []string, q url.Values) (json.RawMessage, error) {
	lo := pageOptions(q)
	p, err := c.Organizations.List(ctx, &lo)
	return jsonOf(p, err)
}

func walkOrganizations(ctx context.Context, c *gamedata.Client, q url.Values, wo *gamedata.WalkOptions, opts ...gamedata.CallOption) iter.Seq2[gamedata.Fields, error] {
	lo := pageOptions(q)
	return fieldsOf(c.Organizations.All(ctx, &lo, wo, opts...), func(o gamedata.Organization) gamedata.Fields { return o.Fields })
}

// fieldsOf is walk with each entry as sent.
func fieldsOf[T any](walk iter.Seq2[T, error], fields func(T) gamedata.Fields) iter.Seq2[gamedata.Fields, error] {
	return func(yield func(gamedata.Fields, error) bool) {
		for e, err := range walk {
			if !yield(fields(e), err) {
				return
			}
		}
	}
}
