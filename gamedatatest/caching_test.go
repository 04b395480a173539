package gamedatatest

import (
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// familyPaths is one path of each endpoint family of s.
func familyPaths(s *Server) map[Family]string {
	return map[Family]string{
		FamilyDashboard:             "/api/dashboard?sort=players",
		FamilySearch:                "/api/search?q=a",
		FamilyPackage:               "/api/packages/game/1337",
		FamilyServer:                "/api/servers/" + s.Catalog().Servers[0].ID,
		FamilyOrganization:          "/api/organizations/north_wind",
		FamilyOrganizations:         "/api/organizations",
		FamilyActivity:              "/api/activity-history?range=24h",
		FamilyAnalyticsSearch:       "/api/analytics/packages?q=a",
		FamilyAnalyticsPackage:      "/api/analytics/packages/game/1337",
		FamilyAnalyticsOrganization: "/api/analytics/organizations/north_wind",
		FamilyOpenAPI:               "/openapi.json",
	}
}

var strongETag = regexp.MustCompile(`^"[0-9a-f]{32}"$`)

func TestCachingHeadersAndRevalidation(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	paths := familyPaths(s)
	require.Len(t, paths, len(Families()))
	for _, f := range Families() {
		t.Run(string(f), func(t *testing.T) {
			path := paths[f]
			first := get(t, s, path)
			require.Equal(t, http.StatusOK, first.status, "%s: %s", path, first.body)
			etag := first.header.Get("ETag")
			assert.Regexp(t, strongETag, etag)
			assert.Equal(t, "no-cache", first.header.Get("Cache-Control"))
			lm, err := http.ParseTime(first.header.Get("Last-Modified"))
			require.NoError(t, err)

			again := get(t, s, path)
			assert.Equal(t, etag, again.header.Get("ETag"), "the same body, the same tag")

			for _, h := range []http.Header{
				{"If-None-Match": {etag}},
				{"If-None-Match": {`"other", W/` + etag}},
				{"If-None-Match": {"*"}},
				{"If-Modified-Since": {lm.Format(http.TimeFormat)}},
			} {
				r := getWith(t, s, path, h)
				assert.Equal(t, http.StatusNotModified, r.status, "%v", h)
				assert.Empty(t, r.body)
				assert.Equal(t, etag, r.header.Get("ETag"))
			}
			for _, h := range []http.Header{
				{"If-None-Match": {`"other"`}},
				{"If-None-Match": {`"other"`}, "If-Modified-Since": {lm.Format(http.TimeFormat)}},
				{"If-Modified-Since": {lm.Add(-time.Second).Format(http.TimeFormat)}},
			} {
				assert.Equal(t, http.StatusOK, getWith(t, s, path, h).status, "%v", h)
			}
		})
	}
	var notModified, bytes int
	for _, r := range s.Requests() {
		if r.Status == http.StatusNotModified {
			notModified++
			bytes += r.Bytes
		}
	}
	assert.Equal(t, 4*len(Families()), notModified, "the log counts every 304")
	assert.Zero(t, bytes, "a 304 sends no body")
}

func TestCachePolicies(t *testing.T) {
	t.Parallel()
	s := NewServer(WithCachePolicy(FamilyPackage, CachePolicy{CacheControl: "max-age=60"}))
	defer s.Close()
	path := familyPaths(s)[FamilyPackage]
	tests := []struct {
		policy       CachePolicy
		cacheControl string
		validators   bool
	}{
		{CachePolicy{CacheControl: "max-age=60"}, "max-age=60", true},
		{CachePolicy{CacheControl: "no-store"}, "no-store", true},
		{CachePolicy{NoValidators: true}, "", false},
		{CachePolicy{CacheControl: "private, max-age=5", NoValidators: true}, "private, max-age=5", false},
		{DefaultCachePolicy, "no-cache", true},
	}
	for i, tt := range tests {
		if i > 0 {
			s.SetCachePolicy(FamilyPackage, tt.policy)
		}
		r := get(t, s, path)
		assert.Equal(t, tt.cacheControl, r.header.Get("Cache-Control"), "%+v", tt.policy)
		assert.Equal(t, tt.validators, r.header.Get("ETag") != "", "%+v", tt.policy)
		assert.Equal(t, tt.validators, r.header.Get("Last-Modified") != "", "%+v", tt.policy)
		want := http.StatusOK
		if tt.validators {
			want = http.StatusNotModified
		}
		cond := getWith(t, s, path, http.Header{"If-None-Match": {"*"}, "If-Modified-Since": {s.Catalog().Now.Format(http.TimeFormat)}})
		assert.Equal(t, want, cond.status, "%+v", tt.policy)
	}
	assert.Equal(t, "no-cache", get(t, s, familyPaths(s)[FamilyOrganizations]).header.Get("Cache-Control"),
		"other families keep the default")
	assert.Empty(t, get(t, s, "/api/packages/game/nope").header.Get("ETag"), "a 404 carries no validators")
}

func TestFaultsBeforeNotModified(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	etag := get(t, s, familyPaths(s)[FamilyPackage]).header.Get("ETag")
	s.SetFaults(Faults{Rate: 1, Kinds: []Fault{Fault503}})
	r := getWith(t, s, familyPaths(s)[FamilyPackage], http.Header{"If-None-Match": {etag}})
	assert.Equal(t, http.StatusServiceUnavailable, r.status)
}

func TestLastModifiedMovesWithChanges(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	path := familyPaths(s)[FamilyPackage]
	before := get(t, s, path)
	require.NoError(t, s.UpdatePackage("game", "1337", PackageUpdate{Title: "Renamed"}))
	after := getWith(t, s, path, http.Header{"If-Modified-Since": {before.header.Get("Last-Modified")}})
	require.Equal(t, http.StatusOK, after.status, "a change at the same twin time is still newer")
	assert.NotEqual(t, before.header.Get("ETag"), after.header.Get("ETag"))
	lm1, _ := http.ParseTime(before.header.Get("Last-Modified"))
	lm2, _ := http.ParseTime(after.header.Get("Last-Modified"))
	assert.True(t, lm2.After(lm1))
	assert.Equal(t, http.StatusNotModified,
		getWith(t, s, path, http.Header{"If-None-Match": {after.header.Get("ETag")}}).status)
}
