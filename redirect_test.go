package gamedata

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedirectsStayWithinTheOrigin(t *testing.T) {
	t.Parallel()
	other, _ := newTwin(t) // another origin, which must never be asked
	// By hand: the origins redirect as the twin never does (it redirects
	// only a page past a directory's end, to its own last page): within
	// the origin, in a loop, to another origin, from https to http.
	tlsOrigin := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(tlsOrigin.Close)
	origin, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/servers/same":
			http.Redirect(w, r, "/api/servers/moved", http.StatusMovedPermanently)
		case "/api/servers/moved":
			w.Write([]byte(`{"id":"moved"}`))
		case "/api/servers/loop":
			http.Redirect(w, r, "/api/servers/loop", http.StatusFound)
		default:
			http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
		}
	})

	c := newTestClient(t, origin.URL)
	s, err := c.Servers.Get(context.Background(), "same")
	require.NoError(t, err, "a same-origin redirect is followed")
	assert.Equal(t, "moved", s.ID)

	_, err = c.Servers.Get(context.Background(), "elsewhere")
	assert.ErrorIs(t, err, ErrRedirectRefused)

	_, err = c.Servers.Get(context.Background(), "loop")
	assert.ErrorIs(t, err, ErrTooManyRedirects)

	tc := newTestClient(t, tlsOrigin.URL, WithHTTPClient(tlsOrigin.Client()))
	_, err = tc.Servers.Get(context.Background(), "downgrade")
	assert.ErrorIs(t, err, ErrRedirectRefused, "https to http is refused")

	assert.Empty(t, other.Requests(), "the other origin never sees a request")
}

func TestUserCheckRedirectIsConsulted(t *testing.T) {
	t.Parallel()
	// By hand: a redirect of a record, which the twin never sends.
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/servers/a" {
			http.Redirect(w, r, "/api/servers/b", http.StatusFound)
			return
		}
		w.Write([]byte(`{"id":"b"}`))
	})
	mine := errors.New("no redirects for me")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return mine }}
	_, err := newTestClient(t, srv.URL, WithHTTPClient(hc)).Servers.Get(context.Background(), "a")
	assert.ErrorIs(t, err, mine)
}

func TestOrigin(t *testing.T) {
	t.Parallel()
	same := [][2]string{
		{"https://h.example/a", "https://H.example:443/b"},
		{"http://h.example/", "http://h.example:80/x"},
	}
	for _, p := range same {
		assert.Equal(t, origin(mustURL(t, p[0])), origin(mustURL(t, p[1])), p)
	}
	different := [][2]string{
		{"https://h.example/", "http://h.example/"},
		{"https://h.example/", "https://h.example:8443/"},
		{"https://h.example/", "https://evil.example/"},
		{"https://h.example/", "https://h.example.evil.example/"},
	}
	for _, p := range different {
		assert.NotEqual(t, origin(mustURL(t, p[0])), origin(mustURL(t, p[1])), p)
	}
}
