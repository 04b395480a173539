package gamedatatest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resolve follows a local $ref ("#/components/...") in doc.
func resolve(t *testing.T, doc map[string]any, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	require.True(t, ok, "want an object, got %T", v)
	ref, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	require.True(t, strings.HasPrefix(ref, "#/"), "local ref %s", ref)
	var cur any = doc
	for _, part := range strings.Split(ref[2:], "/") {
		obj, ok := cur.(map[string]any)
		require.True(t, ok, "ref %s", ref)
		cur, ok = obj[part]
		require.True(t, ok, "ref %s resolves", ref)
	}
	return resolve(t, doc, cur)
}

// walkRefs calls f with every $ref in v.
func walkRefs(v any, f func(string)) {
	switch x := v.(type) {
	case map[string]any:
		if ref, ok := x["$ref"].(string); ok {
			f(ref)
		}
		for _, y := range x {
			walkRefs(y, f)
		}
	case []any:
		for _, y := range x {
			walkRefs(y, f)
		}
	}
}

func TestOpenAPI(t *testing.T) {
	t.Parallel()
	s := NewServer(WithFaults(Faults{Rate: 1})) // no faults outside /api/
	defer s.Close()
	doc := getOK(t, s, "/openapi.json")
	assert.Equal(t, "3.1.0", doc["openapi"])
	walkRefs(doc, func(ref string) { resolve(t, doc, map[string]any{"$ref": ref}) })

	// Each endpoint with its named parameters: in:path for every
	// {placeholder}, plus the named query parameters.
	want := map[string][]string{
		"/api/dashboard":                         {"kind", "page", "pageSize", "sort", "filter"},
		"/api/search":                            {"q"},
		"/api/packages/{kind}/{ident}":           {},
		"/api/servers/{id}":                      {},
		"/api/organizations/{ident}":             {},
		"/api/organizations":                     {"page", "pageSize", "sort", "filter"},
		"/api/activity-history":                  {"range"},
		"/api/analytics/packages":                {"q"},
		"/api/analytics/packages/{kind}/{ident}": {},
		"/api/analytics/organizations/{ident}":   {},
		"/openapi.json":                          {},
	}
	paths := doc["paths"].(map[string]any)
	require.Len(t, paths, len(want))
	placeholder := regexp.MustCompile(`\{(\w+)\}`)
	for path, query := range want {
		t.Run(path, func(t *testing.T) {
			item, ok := paths[path].(map[string]any)
			require.True(t, ok, "path %s is described", path)
			require.Len(t, item, 1, "only get")
			op := item["get"].(map[string]any)
			assert.NotEmpty(t, op["operationId"])
			assert.Contains(t, op["responses"], "200")
			params := map[string]map[string]any{}
			list, _ := op["parameters"].([]any)
			for _, p := range list {
				p := resolve(t, doc, p)
				params[p["in"].(string)+":"+p["name"].(string)] = p
			}
			for _, m := range placeholder.FindAllStringSubmatch(path, -1) {
				p, ok := params["path:"+m[1]]
				if assert.True(t, ok, "path parameter %s", m[1]) {
					assert.Equal(t, true, p["required"])
				}
			}
			for _, name := range query {
				assert.Contains(t, params, "query:"+name)
			}
			if f, ok := params["query:filter"]; ok {
				assert.Equal(t, "array", f["schema"].(map[string]any)["type"])
				assert.Equal(t, true, f["explode"])
				assert.Equal(t, "form", f["style"])
			}
			if ps, ok := params["query:pageSize"]; ok {
				// The twin caps a larger page size instead of refusing it, so
				// the document says so and sets no maximum a validator would
				// refuse it for.
				assert.NotContains(t, ps["schema"], "maximum")
				assert.Contains(t, ps["description"], "capped at 100")
			}
			for _, p := range params {
				assert.NotContains(t, p["schema"], "enum", "%s: the service normalizes unknown values, so no enum", p["name"])
			}
		})
	}

	// The document and the twin agree: every request of every endpoint
	// matches one described path, and every described path is served.
	c := s.Catalog()
	values := map[string]string{
		"kind":  c.Packages[0].Kind,
		"ident": c.Packages[0].Ident,
		"id":    c.Servers[0].ID,
	}
	for path := range paths {
		concrete := placeholder.ReplaceAllStringFunc(path, func(m string) string {
			v := values[m[1:len(m)-1]]
			if strings.Contains(path, "organizations") {
				v = c.Organizations[0].Ident
			}
			return url.PathEscape(v)
		})
		s.SetFaults(Faults{})
		assert.Equal(t, http.StatusOK, get(t, s, concrete).status, "described %s is served as %s", path, concrete)
	}
	var templates []*regexp.Regexp
	for path := range paths {
		templates = append(templates, regexp.MustCompile("^"+placeholder.ReplaceAllString(path, `[^/]+`)+"$"))
	}
	for _, p := range everyPath(c) {
		u, err := url.Parse(p)
		require.NoError(t, err)
		assert.True(t, slices.ContainsFunc(templates, func(re *regexp.Regexp) bool { return re.MatchString(u.EscapedPath()) }),
			"%s is described", u.Path)
	}
	var raw json.RawMessage = openAPIDocument
	assert.True(t, json.Valid(raw))
}
