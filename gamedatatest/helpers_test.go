package gamedatatest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
	"github.com/stretchr/testify/require"
)

// response is one answer of the twin, read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// object decodes the body as a JSON object, numbers as float64.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	return object(t, r.body)
}

// object decodes b as a JSON object, numbers as float64.
func object(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m), "body: %s", b)
	return m
}

// decoded is each entry's JSON decoded as object does, for comparing with
// the items of a page.
func decoded[E interface{ JSON() json.RawMessage }](t *testing.T, entries []E) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(entries))
	for i, e := range entries {
		out[i] = object(t, e.JSON())
	}
	return out
}

// noRedirects is a client that returns a redirect instead of following it.
func noRedirects(s *Server) *http.Client {
	c := *s.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

// get fetches path (with its query) from s without following redirects.
func get(t *testing.T, s *Server, path string) response {
	t.Helper()
	return getWith(t, s, path, nil)
}

// getWith is get with request headers.
func getWith(t *testing.T, s *Server, path string, header http.Header) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, s.URL+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := noRedirects(s).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return response{status: resp.StatusCode, header: resp.Header, body: body}
}

// getOK fetches path and requires a 200 JSON object.
func getOK(t *testing.T, s *Server, path string) map[string]any {
	t.Helper()
	r := get(t, s, path)
	require.Equal(t, http.StatusOK, r.status, "GET %s: %s", path, r.body)
	require.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
	return r.object(t)
}

// decodeNumbers decodes b keeping numbers as json.Number, so a test can
// tell integers from fractions.
func decodeNumbers(t *testing.T, b []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

func maps(t *testing.T, v any) []map[string]any {
	t.Helper()
	list, ok := v.([]any)
	require.True(t, ok, "want an array, got %T", v)
	out := make([]map[string]any, len(list))
	for i, x := range list {
		out[i], ok = x.(map[string]any)
		require.True(t, ok, "want an object, got %T", x)
	}
	return out
}

func withQuery(path string, q url.Values) string {
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// deadlockGuard bounds a wait that only a broken twin makes long: the test
// fails after it instead of hanging. It is never what a test asserts.
const deadlockGuard = time.Minute

// waitLog waits until cond holds for the request log of fi, or fails the
// test after deadlockGuard.
func waitLog(t *testing.T, fi *FaultInjector, what string, cond func([]Request) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadlockGuard)
	defer cancel()
	require.NoError(t, fi.log.waitUntil(ctx, cond), what)
}

// closeWithin closes s, or fails the test with what when Close is still
// waiting after deadlockGuard.
func closeWithin(t *testing.T, s *Server, what string) {
	t.Helper()
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(deadlockGuard):
		t.Fatal(what)
	}
}

// The definitions below are the package catalog's, as its documentation
// (doc.go, WithAwkwardIdents) states them, for tests that check the twin
// against them.

const day = 24 * time.Hour

// activityRanges are the accepted activity-history ranges.
var activityRanges = []string{"24h", "7d", "30d", "90d", "1y", "all"}

// awkwardIdents are the idents WithAwkwardIdents adds.
var awkwardIdents = catalog.AwkwardIdents()

// pkgKey identifies a package.
type pkgKey struct{ kind, ident string }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// referenceTime is the twin's clock before any Advance (Catalog.Now).
var referenceTime = time.Date(2026, time.November, 20, 10, 0, 0, 0, time.UTC)

// searchLimit caps each list of a search answer.
const searchLimit = 25

// maxServers is the cap WithSize puts on the servers.
const maxServers = 16764

// stamp is t as the twin writes a time.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }
