package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

func TestNoDriftAgainstTheTwin(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "in-process twin")
	out := stdout.String()
	assert.Contains(t, out, "No drift")
	assert.NotContains(t, out, "not covered")
	assert.NotContains(t, out, "not published", "the twin publishes everything the SDK sends")
	for _, e := range manifest.Endpoints {
		assert.Regexp(t, regexp.MustCompile(`(?m)^GET `+regexp.QuoteMeta(e.Path)+` +yes +yes +`+regexp.QuoteMeta(strings.Join(e.Calls, ", "))+`$`), out)
	}
	assert.Regexp(t, `(?m)^  GET /api/dashboard\?page=1 +Cache-Control "no-cache" +ETag yes Last-Modified yes -> revalidated: an unchanged read costs a 304$`, out,
		"the caching headers the service sends, and what the cache does with them")
	assert.Regexp(t, `(?m)^  \?pageSize +yes +yes$`, out)
}

// grown is the twin's description after the service has grown: a new
// path with a query parameter, a new parameter on the dashboard (its name
// hostile), the search path gone, and the server id renamed, which is no
// drift.
func grown(t *testing.T) []byte {
	t.Helper()
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, err := gamedata.NewClient(twin.URL)
	require.NoError(t, err)
	raw, err := client.OpenAPI(context.Background())
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(raw, &doc))
	paths := doc["paths"].(map[string]any)
	paths["/api/news"] = map[string]any{
		"parameters": []any{map[string]any{"name": "since", "in": "query"}},
		"get":        map[string]any{"parameters": []any{map[string]any{"name": "X-Trace", "in": "header"}}},
	}
	dash := paths["/api/dashboard"].(map[string]any)["get"].(map[string]any)
	dash["parameters"] = append(dash["parameters"].([]any), map[string]any{"name": "lang\x1b[31m\u202e", "in": "query"})
	paths["/api/servers/{serverId}"] = paths["/api/servers/{id}"]
	delete(paths, "/api/servers/{id}")
	delete(paths, "/api/search")
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	return b
}

func serveDocument(t *testing.T, doc []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/openapi.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(doc)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1/"
}

func TestDriftShown(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-base-url", serveDocument(t, grown(t))}, &stdout, &stderr)
	require.ErrorIs(t, err, errDrift)
	assert.Contains(t, err.Error(), "publishes 3 ")
	assert.Empty(t, stderr.String(), "a given base URL is used")
	out := stdout.String()
	assert.Regexp(t, `(?m)^GET /api/news +yes +- +<- not covered by the SDK$`, out)
	assert.Regexp(t, `(?m)^  \?since +yes +- +<- not covered by the SDK$`, out, "a parameter of the path item counts")
	assert.Regexp(t, `(?m)^  \?lang +yes +- +<- not covered by the SDK$`, out, "the name is printed sanitized")
	assert.NotContains(t, out, "X-Trace", "a header parameter is no query parameter")
	assert.Regexp(t, `(?m)^GET /api/search +- +yes +Search  \(not published by the service\)$`, out)
	assert.Regexp(t, `(?m)^  \?q +- +yes +\(not published by the service\)$`, out)
	assert.Regexp(t, `(?m)^GET /api/servers/\{serverId\} +yes +yes +Servers.Get, Servers.GetMany$`, out, "path parameters match whatever their names")
	assert.Contains(t, out, "DRIFT: the service publishes 3 operations or query parameters that the SDK does not cover.")
	assert.Contains(t, out, "The SDK sends 2 that the service does not publish.")
	assert.False(t, strings.ContainsAny(out, "\x1b\u202e"), "no terminal escape or bidi override from the document reaches the output")
}

func TestBadDocuments(t *testing.T) {
	for name, doc := range map[string]string{
		"no paths":      `{"openapi":"3.1.0"}`,
		"unknown ref":   `{"paths":{"/a":{"get":{"parameters":[{"$ref":"#/components/parameters/nope"}]}}}}`,
		"foreign ref":   `{"paths":{"/a":{"get":{"parameters":[{"$ref":"other.json#/x"}]}}}}`,
		"bad operation": `{"paths":{"/a":{"get":[]}}}`,
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"-base-url", serveDocument(t, []byte(doc))}, &stdout, &stderr)
		assert.Error(t, err, name)
		assert.False(t, errors.Is(err, errDrift), name)
		assert.Empty(t, stdout.String(), name)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"-no-such-flag"}, {"extra"}, {"-base-url", "::not a url"}} {
		var stdout, stderr bytes.Buffer
		assert.Error(t, run(context.Background(), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, stdout.String())
	}
}
