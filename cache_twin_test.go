package gamedata_test

import (
	"context"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The cache against the twin, for each caching policy the service may
// have: what a second read of the same record costs.
func TestCacheAgainstTheTwin(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		policy   gamedatatest.CachePolicy
		requests int
		second   int // the second request's status, when there is one
	}{
		{"max-age=60", gamedatatest.CachePolicy{CacheControl: "max-age=60"}, 1, 0},
		{"no-cache with an ETag", gamedatatest.CachePolicy{CacheControl: "no-cache"}, 2, 304},
		{"no-store", gamedatatest.CachePolicy{CacheControl: "no-store"}, 2, 200},
		{"neither freshness nor validators", gamedatatest.CachePolicy{NoValidators: true}, 2, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin := gamedatatest.NewServer(gamedatatest.WithSize(5, 0, 1), gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, tt.policy))
			defer twin.Close()
			c := gamedata.NewTestClient(t, twin.URL)
			pkg := twin.Catalog().Packages[0]
			kind, ident := pkg.Kind, pkg.Ident
			first, err := c.Packages.Get(context.Background(), kind, ident)
			require.NoError(t, err)
			second, err := c.Packages.Get(context.Background(), kind, ident)
			require.NoError(t, err)
			assert.JSONEq(t, string(first.JSON()), string(second.JSON()), "the same record")
			reqs := twin.Requests()
			require.Len(t, reqs, tt.requests)
			if tt.second != 0 {
				assert.Equal(t, tt.second, reqs[1].Status)
			}
			s := c.Stats()
			t.Logf("%s: %d requests; stats %+v", tt.name, len(reqs), s)
		})
	}
}

// A second walk of an unchanged 30-page directory whose pages are stale
// costs 30 requests answered 304 and under 5 % of the first walk's bytes.
func TestSecondWalkOfAStaleDirectoryCosts304s(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(300, 0, 1))
	defer twin.Close()
	c := gamedata.NewTestClient(t, twin.URL)
	walk := func() int {
		n := 0
		for _, err := range c.Dashboard.All(context.Background(), &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: 10}}, nil) {
			require.NoError(t, err)
			n++
		}
		return n
	}
	entries := walk()
	first := twin.Requests()
	require.Len(t, first, 30, "a 30-page directory")
	assert.Equal(t, entries, walk(), "the second walk yields every entry again")
	second := twin.Requests()[len(first):]
	require.Len(t, second, 30)
	firstBytes, secondBytes := 0, 0
	for i := range second {
		assert.Equal(t, 304, second[i].Status, "page %d", i+1)
		firstBytes += first[i].Bytes
		secondBytes += second[i].Bytes
	}
	t.Logf("first walk %d bytes, second %d bytes (%.1f%%)", firstBytes, secondBytes, 100*float64(secondBytes)/float64(firstBytes))
	assert.Less(t, float64(secondBytes), 0.05*float64(firstBytes))
	assert.Equal(t, int64(30), c.Stats().CacheRevalidations)
}
