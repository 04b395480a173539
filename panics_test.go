package gamedata

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A panic in the caller's code (here a middleware) reaches the caller's
// goroutine, whichever goroutine of the SDK ran it, so the caller's
// recover sees it and the program does not die from a goroutine it
// cannot reach. Where the SDK ran it in a goroutine of its own, the panic
// is a *PanicError that holds the value and where it began.
func TestPanicReachesTheCallersGoroutine(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, tt := range []struct {
		name    string
		carried bool // the panic crossed from a goroutine of the SDK
		run     func(ctx context.Context, c *Client, twin *gamedatatest.Server)
	}{
		{"List, in the caller's goroutine", false, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			_, _ = c.Dashboard.List(ctx, &DashboardOptions{ListOptions: ListOptions{Page: 2, PageSize: 1}})
		}},
		{"All, the page fetched ahead", true, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			for range c.Dashboard.All(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 1}}, nil) {
			}
		}},
		{"GetMany, a worker", true, func(ctx context.Context, c *Client, twin *gamedatatest.Server) {
			refs := []PackageRef{}
			for _, e := range twin.Catalog().Packages {
				refs = append(refs, PackageRef{e.Kind, e.Ident})
			}
			for range c.Packages.GetMany(ctx, refs, 2) {
			}
		}},
		{"Packages.Watch, which polls in the caller's goroutine", false, func(ctx context.Context, c *Client, twin *gamedatatest.Server) {
			e := twin.Catalog().Packages[0]
			for range c.Packages.Watch(ctx, []PackageRef{{e.Kind, e.Ident}}, time.Hour) {
			}
		}},
		{"Dashboard.Watch, a round's page", true, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			for range c.Dashboard.Watch(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 1}}, time.Hour) {
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin, _ := newTwin(t)
			panicky := func(req *http.Request, next Next) (*http.Response, error) {
				if req.URL.Query().Get("page") != "2" && req.URL.Path == "/api/dashboard" {
					return next.RoundTrip(req)
				}
				panic(boom)
			}
			c := newTestClient(t, twin.URL, WithMiddleware(panicky))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			recovered := func() (v any) {
				defer func() { v = recover() }()
				tt.run(ctx, c, twin)
				return nil
			}()
			require.NotNil(t, recovered, "the panic reached the caller")
			if !tt.carried {
				assert.Equal(t, boom, recovered)
				return
			}
			pe, ok := recovered.(*PanicError)
			require.True(t, ok, "a *PanicError: %v", recovered)
			assert.Equal(t, boom, pe.Value)
			assert.ErrorIs(t, pe, boom)
			assert.Contains(t, string(pe.Stack), "panics_test.go", "the stack where it began")
			assert.True(t, strings.HasPrefix(pe.Error(), "gamedata: panic in a goroutine of the SDK: boom\n"), pe.Error())
		})
	}
}
