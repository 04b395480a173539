// Package cachetest checks an implementation of gamedata.Cache: a store of
// one's own (Redis, a database) passes the checks the SDK's memory and
// disk caches pass, in the manner of bartventer/httpcache's
// store/acceptance.
//
// Call Run from a test of the store:
//
//	func TestMyCache(t *testing.T) {
//		cachetest.Run(t, func(t *testing.T) gamedata.Cache {
//			c := mycache.New(…) // empty, of its own
//			t.Cleanup(func() { c.Close() })
//			return c
//		})
//	}
//
// and run it with -race: the concurrency check only shows a data race to
// the race detector. The checks need the store to hold at least 8 MiB.
package cachetest

import (
	"testing"

	"github.com/gamedata-go/gamedata"
)

// Run runs every check against caches that newCache makes. Each check
// calls newCache once, in a subtest of its own, and needs an empty cache
// that no other check shares; newCache registers with t.Cleanup whatever
// closing the cache needs. The checks:
//
//   - RoundTrip: what Set stores, Get returns byte for byte, for keys as
//     the client makes them (URLs, long ones, non-ASCII ones) and values
//     of any bytes up to 2 MiB, each key its own value.
//   - Overwrite: a Set replaces the value a key held.
//   - Miss: a key never set, or deleted, reads as a miss, and Delete of a
//     key that holds nothing does nothing.
//   - Damaged: bytes that are no entry (cut short, a byte changed, empty,
//     another format) round-trip unchanged; a client using the cache
//     serves the service's record instead, counts a miss, and stores the
//     new answer over the damaged one.
//   - Concurrent: Set, Get and Delete from many goroutines on shared
//     keys: every Get returns a whole value some Set stored under that
//     key, never a mix or another key's.
func Run(t *testing.T, newCache func(t *testing.T) gamedata.Cache) {
	t.Helper()
	for _, check := range []struct {
		name string
		run  func(*testing.T, gamedata.Cache)
	}{
		{"RoundTrip", roundTrip},
		{"Overwrite", overwrite},
		{"Miss", miss},
		{"Damaged", damaged},
		{"Concurrent", concurrent},
	} {
		t.Run(check.name, func(t *testing.T) {
			c := newCache(t)
			if c == nil {
				t.Fatal("cachetest: newCache returned a nil Cache; return an empty cache of the check's own")
			}
			check.run(t, c)
		})
	}
}
