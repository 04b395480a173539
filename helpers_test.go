package gamedata

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// requestLog records the requests a test server received.
type requestLog struct {
	mu   sync.Mutex
	reqs []*http.Request
}

func (l *requestLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r.Clone(r.Context()))
}

func (l *requestLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

func (l *requestLog) all() []*http.Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*http.Request(nil), l.reqs...)
}

// newServer starts a test server that logs every request before handing
// it to h.
func newServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *requestLog) {
	t.Helper()
	log := &requestLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// fixtureServer serves files of testdata/ by route. A route is the escaped
// path under prefix, then "?" and the encoded query when there is one. A
// request for any other route fails the test: the SDK asked for something
// the test did not expect.
func fixtureServer(t *testing.T, prefix string, routes map[string]string) (*httptest.Server, *requestLog) {
	t.Helper()
	return newServer(t, func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.URL.EscapedPath(), prefix)
		if q := r.URL.Query().Encode(); q != "" {
			key += "?" + q
		}
		name, ok := routes[key]
		if !ok || !strings.HasPrefix(r.URL.EscapedPath(), prefix) {
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			http.Error(w, `{"error":"no fixture"}`, http.StatusNotFound)
			return
		}
		body, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Errorf("fixture %s: %v", name, err)
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})
}

// newTestClient returns a client for a test server: no rate limit and
// short backoffs, so tests do not wait, unless opts say otherwise.
func newTestClient(t *testing.T, baseURL string, opts ...Option) *Client {
	t.Helper()
	defaults := []Option{WithRateLimit(rate.Inf, 0), WithBackoff(time.Millisecond, 10*time.Millisecond)}
	c, err := NewClient(baseURL, append(defaults, opts...)...)
	require.NoError(t, err)
	return c
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}
