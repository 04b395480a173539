package gamedatatest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// TestRoutesAreTheManifest checks that the twin answers every path of the
// service's route table, internal/manifest, and nothing else, each as the
// endpoint family it names: every family's answers carry a Cache-Control
// of their own here.
func TestRoutesAreTheManifest(t *testing.T) {
	t.Parallel()
	var paths, answered []string
	for _, e := range manifest.Endpoints {
		paths = append(paths, e.Path)
	}
	var families []Family
	for path, e := range endpoints {
		answered = append(answered, path)
		families = append(families, e.family)
	}
	assert.ElementsMatch(t, paths, answered)
	assert.ElementsMatch(t, Families(), families, "one family a path")

	s := NewServer()
	defer s.Close()
	for _, f := range Families() {
		s.SetCachePolicy(f, CachePolicy{CacheControl: "max-age=1, family=" + string(f)})
	}
	cat := s.Catalog()
	pkg, srv, org := cat.Packages[0], cat.Servers[0], cat.Organizations[0]
	args := map[string][]string{
		"/api/packages/{kind}/{ident}":           {pkg.Kind, pkg.Ident},
		"/api/analytics/packages/{kind}/{ident}": {pkg.Kind, pkg.Ident},
		"/api/servers/{id}":                      {srv.ID},
		"/api/organizations/{ident}":             {org.Ident},
		"/api/analytics/organizations/{ident}":   {org.Ident},
	}
	for _, e := range manifest.Endpoints {
		path, ok := e.Expand(args[e.Path]...)
		require.True(t, ok, e.Path)
		r := get(t, s, path)
		assert.Equal(t, http.StatusOK, r.status, path)
		assert.Equal(t, "max-age=1, family="+string(endpoints[e.Path].family), r.header.Get("Cache-Control"), path)
	}
}
