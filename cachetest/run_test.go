package cachetest_test

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cachetest"
)

// store is a map behind a lock; each broken store below breaks one rule
// of gamedata.Cache on top of it.
type store struct {
	mu sync.Mutex
	m  map[string][]byte
	// prev is the value each key held before the last Set, for the
	// torn store.
	prev map[string][]byte
}

func (s *store) Get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}

func (s *store) Set(key string, value []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prev[key] = s.m[key]
	s.m[key] = append([]byte(nil), value...)
}

func (s *store) Delete(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, key)
}

type forgetful struct{ *store }

func (forgetful) Set(string, []byte) {}

type truncating struct{ *store }

func (s truncating) Set(key string, value []byte) { s.store.Set(key, value[:min(len(value), 1<<20)]) }

type colliding struct{ *store }

func (s colliding) Get(key string) ([]byte, bool) { return s.store.Get(key[:min(len(key), 48)]) }
func (s colliding) Set(key string, v []byte)      { s.store.Set(key[:min(len(key), 48)], v) }

type firstOnly struct{ *store }

func (s firstOnly) Set(key string, value []byte) {
	if _, ok := s.store.Get(key); !ok {
		s.store.Set(key, value)
	}
}

type undeletable struct{ *store }

func (undeletable) Delete(string) {}

// torn answers the first half of a key's last value joined to the rest of
// the value before it, as a store does whose reader meets a write half
// done.
type torn struct{ *store }

func (s torn) Get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	if p := s.prev[key]; ok && len(p) == len(v) {
		v = append(v[:len(v)/2:len(v)/2], p[len(v)/2:]...)
	}
	return v, ok
}

// brokenStores are the stores TestRunFailsBrokenStores runs the suite
// against, and the checks each must fail.
var brokenStores = map[string]struct {
	make  func(*store) gamedata.Cache
	fails []string
}{
	"forgetful":   {func(s *store) gamedata.Cache { return forgetful{s} }, []string{"RoundTrip", "Damaged"}},
	"truncating":  {func(s *store) gamedata.Cache { return truncating{s} }, []string{"RoundTrip"}},
	"colliding":   {func(s *store) gamedata.Cache { return colliding{s} }, []string{"RoundTrip"}},
	"firstOnly":   {func(s *store) gamedata.Cache { return firstOnly{s} }, []string{"Overwrite", "Damaged"}},
	"undeletable": {func(s *store) gamedata.Cache { return undeletable{s} }, []string{"Miss"}},
	"torn":        {func(s *store) gamedata.Cache { return torn{s} }, []string{"Concurrent"}},
}

// TestRunFailsBrokenStores runs the suite on each broken store in a child
// process, since a failed *testing.T cannot be taken back in this one, and
// checks that the check meant to catch it fails.
func TestRunFailsBrokenStores(t *testing.T) {
	t.Parallel()
	for name, broken := range brokenStores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestBrokenStore$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "CACHETEST_BROKEN="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passes the %s store:\n%s", name, out)
			}
			for _, check := range broken.fails {
				if want := "--- FAIL: TestBrokenStore/" + check + " "; !strings.Contains(string(out), want) {
					t.Errorf("the suite fails the %s store, but not in %s:\n%s", name, check, out)
				}
			}
		})
	}
}

// TestBrokenStore is the child of TestRunFailsBrokenStores.
func TestBrokenStore(t *testing.T) {
	broken, ok := brokenStores[os.Getenv("CACHETEST_BROKEN")]
	if !ok {
		t.Skip("run by TestRunFailsBrokenStores")
	}
	cachetest.Run(t, func(*testing.T) gamedata.Cache {
		return broken.make(&store{m: map[string][]byte{}, prev: map[string][]byte{}})
	})
}

// A correct store passes: the suite asks nothing of a store beyond the
// Cache contract.
func TestRunPassesAMapBehindALock(t *testing.T) {
	t.Parallel()
	cachetest.Run(t, func(*testing.T) gamedata.Cache {
		return &store{m: map[string][]byte{}, prev: map[string][]byte{}}
	})
}
