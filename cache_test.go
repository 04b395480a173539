package gamedata_test

import (
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cachetest"
)

// The SDK's own caches pass the checks it asks of any store.
func TestCachesPassTheAcceptanceSuite(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		newCache func(t *testing.T) gamedata.Cache
	}{
		{"memory", func(*testing.T) gamedata.Cache { return gamedata.NewMemoryCache(32 << 20) }},
		{"disk", func(t *testing.T) gamedata.Cache {
			c, err := gamedata.NewDiskCache(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return c
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cachetest.Run(t, tt.newCache)
		})
	}
}
