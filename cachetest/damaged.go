package cachetest

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// damages are what a store may make of an entry: a crash cuts it short, a
// bad disk changes a byte, another program writes its own bytes.
var damages = []struct {
	name   string
	damage func([]byte) []byte
}{
	{"cut short", func(v []byte) []byte { return v[:len(v)/2] }},
	{"a byte changed", func(v []byte) []byte {
		d := slices.Clone(v)
		d[len(d)/2] ^= 0x55
		return d
	}},
	{"another format", func([]byte) []byte { return []byte(`{"players":999999,"title":"not an entry"}`) }},
}

// damaged runs a client on c against the twin, damages every entry the
// client stored, and checks that the client serves the service's record
// again and stores it over the damaged entry.
func damaged(t *testing.T, c gamedata.Cache) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(3, 0, 1),
		gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=86400"}))
	t.Cleanup(twin.Close)
	rec := &recorder{Cache: c}
	// No client-side rate limit: the check waits on nothing but the twin.
	client, err := gamedata.NewClient(twin.URL, gamedata.WithCache(rec), gamedata.WithRateLimit(rate.Inf, 0), gamedata.WithAdaptiveRate(false))
	if err != nil {
		t.Fatal(err)
	}
	e := twin.Catalog().Packages[0]
	want := bytes.TrimSpace(twin.Catalog().Package(e.Kind, e.Ident))
	get := func(when string) {
		t.Helper()
		p, err := client.Packages.Get(context.Background(), e.Kind, e.Ident)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !bytes.Equal(bytes.TrimSpace(p.JSON()), want) {
			t.Fatalf("%s: the client served %s; want the service's record %s", when, p.JSON(), want)
		}
	}
	get("first call")
	get("second call")
	if s := client.Stats(); s.CacheHits != 1 {
		t.Fatalf("the second call of a record fresh for a day made a request (stats %+v): Get does not return what the client Set", s)
	}
	keys := rec.keys()
	if len(keys) == 0 {
		t.Fatal("the client stored nothing in the cache")
	}
	for _, d := range damages {
		before := client.Stats()
		for _, key := range keys {
			v, ok := c.Get(key)
			if !ok {
				t.Fatalf("%s: the entry under %q is gone before it was damaged", d.name, key)
			}
			bad := d.damage(v)
			c.Set(key, bad)
			if got, ok := c.Get(key); !ok || !bytes.Equal(got, bad) {
				t.Fatalf("%s: Get returns %d bytes, %v, of the %d damaged bytes Set stored: a store keeps any bytes as they are", d.name, len(got), ok, len(bad))
			}
		}
		get("a call over an entry " + d.name)
		get("the call after it")
		after := client.Stats()
		if misses, hits := after.CacheMisses-before.CacheMisses, after.CacheHits-before.CacheHits; misses != 1 || hits != 1 {
			t.Errorf("%s: %d misses and %d hits; want 1 miss, the damaged entry, then 1 hit on the new answer stored over it", d.name, misses, hits)
		}
	}
}

// recorder is a Cache that remembers the keys set through it, so that the
// check can damage what the client stored without a way to list a store.
type recorder struct {
	gamedata.Cache
	mu  sync.Mutex
	set []string
}

func (r *recorder) Set(key string, value []byte) {
	r.mu.Lock()
	if !slices.Contains(r.set, key) {
		r.set = append(r.set, key)
	}
	r.mu.Unlock()
	r.Cache.Set(key, value)
}

func (r *recorder) keys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.set)
}
