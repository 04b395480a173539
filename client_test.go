package gamedata

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

func TestNewClientRefusesBadBaseURLs(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"",
		"/api",
		"example.com",
		"ftp://example.com/",
		"file:///etc/passwd",
		"https://",
		"https://user:secret@example.com/",
		"https://example.com/?x=1",
		"https://example.com/#frag",
		"http://[::1",
	} {
		c, err := NewClient(raw)
		assert.Error(t, err, "%q", raw)
		assert.Nil(t, c)
	}
	for _, raw := range []string{"https://example.com", "http://127.0.0.1:8080/", "https://example.com/prefix/"} {
		_, err := NewClient(raw)
		assert.NoError(t, err, "%q", raw)
	}
}

func TestNewClientRefusesBadOptions(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]Option{
		"nil http client":   WithHTTPClient(nil),
		"negative retries":  WithRetryMax(-1),
		"negative backoff":  WithBackoff(-time.Second, time.Second),
		"min above max":     WithBackoff(2*time.Second, time.Second),
		"zero rate":         WithRateLimit(0, 1),
		"zero burst":        WithRateLimit(5, 0),
		"empty user agent":  WithUserAgent(""),
		"zero body limit":   WithMaxResponseBytes(0),
		"negative body cap": WithMaxResponseBytes(-5),
	} {
		_, err := NewClient("https://example.com", opt)
		assert.Error(t, err, name)
	}
	_, err := NewClient("https://example.com", WithRateLimit(rate.Inf, 0), WithRetryMax(0), WithLogger(nil))
	assert.NoError(t, err, "rate.Inf needs no burst; 0 retries and a nil logger are fine")
}

func TestBasePathPrefixAndHeaders(t *testing.T) {
	t.Parallel()
	srv, log := fixtureServer(t, "/deep/prefix", map[string]string{"/api/packages/game/space-miner": "package.json"})
	for _, base := range []string{srv.URL + "/deep/prefix", srv.URL + "/deep/prefix/"} {
		c := newTestClient(t, base, WithUserAgent("my-tool/1.0"))
		_, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
		require.NoError(t, err, base)
	}
	for _, r := range log.all() {
		assert.Equal(t, "my-tool/1.0", r.Header.Get("User-Agent"))
		assert.Equal(t, "application/json", r.Header.Get("Accept"))
		assert.Empty(t, r.Header.Get("Authorization"), "the client sends no credential")
	}
}

func TestDefaultUserAgent(t *testing.T) {
	t.Parallel()
	srv, log := fixtureServer(t, "", map[string]string{"/api/servers/203.0.113.7:27015": "server.json"})
	_, err := newTestClient(t, srv.URL).Servers.Get(context.Background(), "203.0.113.7:27015")
	require.NoError(t, err)
	assert.Equal(t, "gamedata-go/"+Version, log.all()[0].Header.Get("User-Agent"))
}

func TestUsesTheGivenHTTPClientTransport(t *testing.T) {
	t.Parallel()
	srv, _ := fixtureServer(t, "", map[string]string{"/api/servers/203.0.113.7:27015": "server.json"})
	var seen int
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen++
		return http.DefaultTransport.RoundTrip(r)
	})}
	_, err := newTestClient(t, srv.URL, WithHTTPClient(hc)).Servers.Get(context.Background(), "203.0.113.7:27015")
	require.NoError(t, err)
	assert.Equal(t, 1, seen)
}

func TestLoggerIsSilentUnlessGiven(t *testing.T) {
	t.Parallel()
	silent := newTestClient(t, "https://example.com")
	assert.Nil(t, silent.http.Logger, "retryablehttp logs nothing only when its Logger is nil")

	fails := 0
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if fails++; fails == 1 {
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		w.Write([]byte(`{"id":"x"}`))
	})
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, err := newTestClient(t, srv.URL, WithLogger(logger)).Servers.Get(context.Background(), "x")
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "retrying request")
}

func TestNilContext(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "https://example.com")
	//lint:ignore SA1012 the test passes a nil context on purpose
	_, err := c.Packages.Get(nil, KindGame, "x") //nolint:staticcheck
	assert.ErrorContains(t, err, "nil context")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
