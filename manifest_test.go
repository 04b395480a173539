package gamedata_test

import (
	"context"
	"iter"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Placeholders for path parameters, recognised in the paths requested.
const (
	kindArg  = "KIND-ARG"
	identArg = "IDENT-ARG"
	idArg    = "ID-ARG"
)

// manifestCalls makes, for each exported method of the client and of its
// services that requests something, one call with every option set.
var manifestCalls = map[string]func(context.Context, *gamedata.Client){
	"OpenAPI": func(ctx context.Context, c *gamedata.Client) { c.OpenAPI(ctx) },
	"Search": func(ctx context.Context, c *gamedata.Client) {
		c.Search(ctx, filled(&gamedata.SearchOptions{}))
	},
	"Dashboard.List": func(ctx context.Context, c *gamedata.Client) {
		c.Dashboard.List(ctx, filled(&gamedata.DashboardOptions{}))
	},
	"Dashboard.All": func(ctx context.Context, c *gamedata.Client) {
		first(c.Dashboard.All(ctx, filled(&gamedata.DashboardOptions{}), nil))
	},
	"Dashboard.Watch": func(ctx context.Context, c *gamedata.Client) {
		first(c.Dashboard.Watch(ctx, filled(&gamedata.DashboardOptions{}), time.Minute))
	},
	"Packages.Watch": func(ctx context.Context, c *gamedata.Client) {
		first(c.Packages.Watch(ctx, []gamedata.PackageRef{{Kind: kindArg, Ident: identArg}}, time.Minute))
	},
	"Packages.Get": func(ctx context.Context, c *gamedata.Client) { c.Packages.Get(ctx, kindArg, identArg) },
	"Packages.GetMany": func(ctx context.Context, c *gamedata.Client) {
		first(c.Packages.GetMany(ctx, []gamedata.PackageRef{{Kind: kindArg, Ident: identArg}}, 1))
	},
	"Servers.Get":       func(ctx context.Context, c *gamedata.Client) { c.Servers.Get(ctx, idArg) },
	"Servers.GetMany":   func(ctx context.Context, c *gamedata.Client) { first(c.Servers.GetMany(ctx, []string{idArg}, 1)) },
	"Organizations.Get": func(ctx context.Context, c *gamedata.Client) { c.Organizations.Get(ctx, identArg) },
	"Organizations.List": func(ctx context.Context, c *gamedata.Client) {
		c.Organizations.List(ctx, filled(&gamedata.ListOptions{}))
	},
	"Organizations.All": func(ctx context.Context, c *gamedata.Client) {
		first(c.Organizations.All(ctx, filled(&gamedata.ListOptions{}), nil))
	},
	"Activity.History": func(ctx context.Context, c *gamedata.Client) {
		c.Activity.History(ctx, filled(&gamedata.ActivityOptions{}))
	},
	"Analytics.Search": func(ctx context.Context, c *gamedata.Client) {
		c.Analytics.Search(ctx, filled(&gamedata.SearchOptions{}))
	},
	"Analytics.Package":      func(ctx context.Context, c *gamedata.Client) { c.Analytics.Package(ctx, kindArg, identArg) },
	"Analytics.Organization": func(ctx context.Context, c *gamedata.Client) { c.Analytics.Organization(ctx, identArg) },
}

// noRequest lists the exported methods that send nothing.
var noRequest = []string{"Stats"}

// TestManifest checks internal/manifest, the list of paths and parameters
// the drift check (examples/drift) compares with the service's
// description, against what the client really sends: every method, every
// option set.
func TestManifest(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	seen := map[string]map[string]bool{} // path → params
	calls := map[string][]string{}       // path → calls
	var current string
	// By hand: every call, placeholders and all, must get a record back
	// (a watch of a package the twin answers 404 would wait for it
	// forever), and every request must be seen with the call that sent it.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		path := template(strings.TrimPrefix(r.URL.EscapedPath(), "/prefix"))
		if seen[path] == nil {
			seen[path] = map[string]bool{}
		}
		for name := range r.URL.Query() {
			seen[path][name] = true
		}
		if !slices.Contains(calls[path], current) {
			calls[path] = append(calls[path], current)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	client, err := gamedata.NewClient(srv.URL+"/prefix/", gamedata.WithRetryMax(0), gamedata.WithRateLimit(rate.Inf, 1), gamedata.WithPrefetch(0))
	require.NoError(t, err)

	for _, name := range exportedMethods(client) {
		call, ok := manifestCalls[name]
		if slices.Contains(noRequest, name) {
			continue
		}
		if !assert.True(t, ok, "method %s: add it to manifestCalls (manifest_test.go), and what it sends to internal/manifest", name) {
			continue
		}
		mu.Lock()
		current = name
		mu.Unlock()
		call(context.Background(), client)
	}

	var got []manifest.Endpoint
	for path, params := range seen {
		e := manifest.Endpoint{Path: path, Calls: calls[path]}
		for p := range params {
			e.Params = append(e.Params, p)
		}
		slices.Sort(e.Params)
		slices.Sort(e.Calls)
		got = append(got, e)
	}
	slices.SortFunc(got, func(a, b manifest.Endpoint) int { return strings.Compare(a.Path, b.Path) })
	assert.Equal(t, manifest.Endpoints, got, "internal/manifest.Endpoints (expected) differs from what the client sends (actual)")
}

// exportedMethods names the exported methods of the client ("Search") and
// of its services ("Packages.Get").
func exportedMethods(c *gamedata.Client) []string {
	var names []string
	ct := reflect.TypeOf(c)
	for m := range ct.Methods() {
		names = append(names, m.Name)
	}
	cv := reflect.ValueOf(c).Elem()
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer {
			continue
		}
		for m := range f.Type.Methods() {
			names = append(names, f.Name+"."+m.Name)
		}
	}
	slices.Sort(names)
	return names
}

// template turns a requested path back into its OpenAPI form.
func template(path string) string {
	seg := strings.Split(path, "/")
	for i, s := range seg {
		switch s {
		case kindArg:
			seg[i] = "{kind}"
		case identArg:
			seg[i] = "{ident}"
		case idArg:
			seg[i] = "{id}"
		}
	}
	return strings.Join(seg, "/")
}

// first starts a walk or a watch and stops it at its first item, having
// sent its first request.
func first[V any](seq iter.Seq2[V, error]) {
	for range seq {
		break
	}
}

// filled sets every field of an options struct that has a url tag, so
// that every parameter it can send is sent.
func filled[T any](opts *T) *T {
	fill(reflect.ValueOf(opts).Elem())
	return opts
}

// fill sets every field of struct v that has a url tag, and the fields of
// the structs it embeds.
func fill(v reflect.Value) {
	for i := range v.NumField() {
		field := v.Type().Field(i)
		if field.Anonymous {
			fill(v.Field(i))
			continue
		}
		tag := field.Tag.Get("url")
		if tag == "" || tag == "-" {
			continue
		}
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(2)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"a", "b"}))
		default:
			panic("filled: a field of kind " + f.Kind().String() + "; teach filled to set it")
		}
	}
}
