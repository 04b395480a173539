package gamedata

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redirecting is a small twin that answers a request for the server
// record named ident with a redirect to where(id), id being the twin's
// server, and that id: the twin itself redirects only a page past a
// directory's end, to its own last page.
func redirecting(t *testing.T, ident string, status int, where func(id string) string) (*gamedatatest.Server, string) {
	t.Helper()
	twin, id := newTwin(t)
	twin.SetFaults(gamedatatest.Faults{
		Rate:   1,
		Match:  func(r *http.Request) bool { return r.URL.Path == "/api/servers/"+ident },
		Answer: gamedatatest.Respond(gamedatatest.Response{Status: status, Header: http.Header{"Location": {where(id)}}}),
	})
	return twin, id
}

// to is a redirect target that is not the twin's server.
func to(location string) func(string) string { return func(string) string { return location } }

// toServer is the twin's own server record.
func toServer(id string) string { return "/api/servers/" + id }

func TestRedirectsStayWithinTheOrigin(t *testing.T) {
	t.Parallel()
	other, _ := newTwin(t) // another origin, which must never be asked

	same, id := redirecting(t, "same", http.StatusMovedPermanently, toServer)
	s, err := newTestClient(t, same.URL).Servers.Get(context.Background(), "same")
	require.NoError(t, err, "a same-origin redirect is followed")
	assert.Equal(t, id, s.ID)

	elsewhere, _ := redirecting(t, "elsewhere", http.StatusFound, to(other.URL+"/api/servers/elsewhere"))
	_, err = newTestClient(t, elsewhere.URL).Servers.Get(context.Background(), "elsewhere")
	assert.ErrorIs(t, err, ErrRedirectRefused)

	loop, _ := redirecting(t, "loop", http.StatusFound, to("/api/servers/loop"))
	_, err = newTestClient(t, loop.URL).Servers.Get(context.Background(), "loop")
	assert.ErrorIs(t, err, ErrTooManyRedirects)

	// The twin over TLS, redirecting to the plain other origin.
	downgrade, _ := redirecting(t, "downgrade", http.StatusFound, to(other.URL+"/api/servers/downgrade"))
	tlsOrigin := httptest.NewTLSServer(downgrade.Handler())
	t.Cleanup(tlsOrigin.Close)
	tc := newTestClient(t, tlsOrigin.URL, WithHTTPClient(tlsOrigin.Client()))
	_, err = tc.Servers.Get(context.Background(), "downgrade")
	assert.ErrorIs(t, err, ErrRedirectRefused, "https to http is refused")

	assert.Empty(t, other.Requests(), "the other origin never sees a request")
}

func TestUserCheckRedirectIsConsulted(t *testing.T) {
	t.Parallel()
	twin, _ := redirecting(t, "a", http.StatusFound, toServer)
	mine := errors.New("no redirects for me")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return mine }}
	_, err := newTestClient(t, twin.URL, WithHTTPClient(hc)).Servers.Get(context.Background(), "a")
	assert.ErrorIs(t, err, mine)
}
