package gamedata

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPathSegmentsStayWhole(t *testing.T) {
	t.Parallel()
	srv, log := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{}`))
	})
	c := newTestClient(t, srv.URL+"/base")
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"server id with a port", func() error { _, err := c.Servers.Get(ctx, "1.2.3.4:27015"); return err }, "/base/api/servers/1.2.3.4:27015"},
		{"server id with a slash", func() error { _, err := c.Servers.Get(ctx, "a/b"); return err }, "/base/api/servers/a%2Fb"},
		{"dot-dot inside an ident", func() error { _, err := c.Packages.Get(ctx, "game", "../x"); return err }, "/base/api/packages/game/..%2Fx"},
		{"query and fragment characters", func() error { _, err := c.Organizations.Get(ctx, "a?b#c"); return err }, "/base/api/organizations/a%3Fb%23c"},
		{"percent and space", func() error { _, err := c.Analytics.Organization(ctx, "100% fun"); return err }, "/base/api/analytics/organizations/100%25%20fun"},
		{"kind with a slash", func() error { _, err := c.Analytics.Package(ctx, "g/ame", "x"); return err }, "/base/api/analytics/packages/g%2Fame/x"},
	}
	for i, tt := range tests {
		require.NoError(t, tt.call(), tt.name)
		reqs := log.all()
		require.Len(t, reqs, i+1)
		assert.Equal(t, tt.want, reqs[i].URL.EscapedPath(), tt.name)
	}
}

func TestEmptyAndDotIdentifiersAreRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	srv, log := newServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) })
	c := newTestClient(t, srv.URL)
	ctx := context.Background()
	for _, bad := range []string{"", ".", ".."} {
		_, err := c.Packages.Get(ctx, KindGame, bad)
		assert.Error(t, err, "package ident %q", bad)
		_, err = c.Packages.Get(ctx, bad, "x")
		assert.Error(t, err, "package kind %q", bad)
		_, err = c.Servers.Get(ctx, bad)
		assert.Error(t, err, "server id %q", bad)
		_, err = c.Organizations.Get(ctx, bad)
		assert.Error(t, err, "organization %q", bad)
		_, err = c.Analytics.Package(ctx, KindGame, bad)
		assert.Error(t, err, "analytics package %q", bad)
		_, err = c.Analytics.Organization(ctx, bad)
		assert.Error(t, err, "analytics organization %q", bad)
	}
	_, err := c.Search(ctx, &SearchOptions{})
	assert.Error(t, err, "empty search")
	_, err = c.Analytics.Search(ctx, nil)
	assert.Error(t, err, "nil search")
	assert.Zero(t, log.len(), "nothing was sent")
}
