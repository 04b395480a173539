package manifest

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatch(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		path, want string
		args       []string
	}{
		{"/api/dashboard", "/api/dashboard", nil},
		{"/openapi.json", "/openapi.json", nil},
		{"/api/organizations", "/api/organizations", nil},
		{"/api/organizations/acme", "/api/organizations/{ident}", []string{"acme"}},
		{"/api/packages/game/a%2Fb", "/api/packages/{kind}/{ident}", []string{"game", "a/b"}},
		{"/api/packages/game/%2E%2E", "/api/packages/{kind}/{ident}", []string{"game", ".."}},
		{"/api/servers/203.0.113.7:27015", "/api/servers/{id}", []string{"203.0.113.7:27015"}},
		{"/api/analytics/packages", "/api/analytics/packages", nil},
		{"/api/analytics/packages/mod/x", "/api/analytics/packages/{kind}/{ident}", []string{"mod", "x"}},
		{"/api/analytics/organizations/1999", "/api/analytics/organizations/{ident}", []string{"1999"}},
		{"/api/dashbo%61rd", "/api/dashboard", nil}, // a fixed segment compares unescaped
		{"api/search", "/api/search", nil},          // the leading slash is optional
	} {
		e, args, ok := Match(tt.path)
		require.True(t, ok, tt.path)
		assert.Equal(t, tt.want, e.Path, tt.path)
		assert.Equal(t, tt.args, args, tt.path)
	}
	for _, path := range []string{
		"", "/", "/api", "/api/", "/api/dashboard/", "//api/dashboard", "/api//dashboard",
		"/api/packages/game", "/api/packages/game/", "/api/packages/game/x/y", "/api/packages/game/%zz",
		"/api/analytics/organizations", "/api/servers", "/openapi.json/x", "/nope",
	} {
		_, _, ok := Match(path)
		assert.False(t, ok, path)
	}
}

// TestEveryEndpointMatchesItself expands every endpoint with awkward
// values, and matches the result back to that endpoint alone, with the
// same values: no two endpoints' paths overlap.
func TestEveryEndpointMatchesItself(t *testing.T) {
	t.Parallel()
	values := []string{"a/b", "with space", "100%", "q?x=1", "ünïcode"}
	for _, e := range Endpoints {
		names := e.PathParams()
		args := values[:len(names)]
		path, ok := e.Expand(args...)
		require.True(t, ok, e.Path)
		got, gotArgs, ok := Match(path)
		require.True(t, ok, "%s as %s", e.Path, path)
		assert.Equal(t, e, got, path)
		if len(args) > 0 {
			assert.Equal(t, args, gotArgs, path)
		}
		_, ok = e.Expand(append(args, "one too many")...)
		assert.False(t, ok, "%s: one argument too many", e.Path)
		if len(args) > 0 {
			_, ok = e.Expand(args[1:]...)
			assert.False(t, ok, "%s: one argument too few", e.Path)
		}
	}
}

func TestPathParams(t *testing.T) {
	t.Parallel()
	for path, want := range map[string][]string{
		"/api/packages/{kind}/{ident}":         {"kind", "ident"},
		"/api/analytics/organizations/{ident}": {"ident"},
		"/api/servers/{id}":                    {"id"},
		"/api/search":                          nil,
	} {
		assert.Equal(t, want, Endpoint{Path: path}.PathParams(), path)
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	got, ok := Endpoint{Path: "/api/packages/{kind}/{ident}"}.Expand("game", "a/b c")
	assert.True(t, ok)
	assert.Equal(t, "/api/packages/game/a%2Fb%20c", got)
}

// Join puts the arguments in place of the parameters, escaped or not,
// under a base path, and refuses a number of arguments that is not the
// number of parameters.
func TestJoin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		e      Endpoint
		base   string
		escape bool
		args   []string
		want   string
		ok     bool
	}{
		{Package, "", true, []string{"game", "a/b c"}, "/api/packages/game/a%2Fb%20c", true},
		{Package, "/prefix", false, []string{"game", "a/b"}, "/prefix/api/packages/game/a/b", true},
		{Search, "/p", true, nil, "/p/api/search", true},
		{OpenAPI, "", true, nil, "/openapi.json", true},
		{Server, "", true, nil, "", false},
		{Server, "", true, []string{"a", "b"}, "", false},
	} {
		escape := func(s string) string { return s }
		if tt.escape {
			escape = url.PathEscape
		}
		got, ok := tt.e.Join(tt.base, escape, tt.args)
		assert.Equal(t, tt.ok, ok, "%s %q", tt.e.Path, tt.args)
		if tt.ok {
			assert.Equal(t, tt.want, got)
		}
	}
}
