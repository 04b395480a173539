package gamedata

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// The memory cache hands every call the same stored record, without a
// copy. A caller who changes the bytes of its record damages the entry:
// the next call must not serve the change as the service's answer, but
// read the record again. Both the fresh hit and the revalidation are
// covered.
func TestMemoryCacheChangedRecordIsNotServed(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{"max-age=3600", "no-cache"} {
		t.Run(policy, func(t *testing.T) {
			t.Parallel()
			twin := gamedatatest.NewServer(gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: policy}))
			t.Cleanup(twin.Close)
			c := newTestClient(t, twin.URL)
			e := twin.Catalog().Packages[0]
			ctx := context.Background()

			first, err := c.Packages.Get(ctx, e.Kind, e.Ident)
			require.NoError(t, err)
			sent := string(first.JSON())
			cached, err := c.Packages.Get(ctx, e.Kind, e.Ident)
			require.NoError(t, err)
			require.Equal(t, sent, string(cached.JSON()))

			clear(cached.JSON()) // the caller's own bytes, shared with the cache
			again, err := c.Packages.Get(ctx, e.Kind, e.Ident)
			require.NoError(t, err)
			assert.Equal(t, sent, string(again.JSON()), "the service's record, not the changed bytes")
			assert.Equal(t, int64(2), c.Stats().CacheMisses, "read again in full")
		})
	}
}
