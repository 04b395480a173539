package cachetest

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
)

// keys are keys as the client makes them, and the corners of a key a store
// might mangle: a long one, non-ASCII, spaces and separators, and pairs
// that differ only in case, in a suffix or in escaping.
var keys = []string{
	"https://api.example.org/api/packages/game/space-miner",
	"https://api.example.org/api/packages/game/Space-Miner",
	"https://api.example.org/api/packages/game/space-miner-2",
	"https://api.example.org/api/packages/game/a%2Fb",
	"https://api.example.org/api/packages/game/a/b",
	"https://api.example.org/api/dashboard?filter=online&kind=game&page=2&pageSize=100",
	"https://api.example.org/api/packages/game/%C3%BCn%C3%AFcode",
	"https://api.example.org/api/packages/game/ünïcode",
	"https://api.example.org/api/search?q=" + strings.Repeat("long%20query", 400),
	"key with spaces, colons: and\ttabs",
	"k",
}

// value is n bytes for key i that hold every byte value, so that a store
// that treats values as text, trims them or stops at a zero shows it.
func value(i, n int) []byte {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte(j*7 + i)
	}
	copy(b, strconv.Itoa(i)+":")
	return b
}

func roundTrip(t *testing.T, c gamedata.Cache) {
	sizes := []int{1, 100, 64 << 10, 1 << 20, 2<<20 + 1}
	for i, key := range keys {
		c.Set(key, value(i, sizes[i%len(sizes)]))
	}
	for i, key := range keys {
		want := value(i, sizes[i%len(sizes)])
		got, ok := c.Get(key)
		switch {
		case !ok:
			t.Errorf("Get(%.60q) is a miss; want the %d bytes Set stored", key, len(want))
		case !bytes.Equal(got, want):
			t.Errorf("Get(%.60q) returns %d bytes %s; want the %d bytes Set stored", key, len(got), differ(got, want), len(want))
		}
	}
}

func overwrite(t *testing.T, c gamedata.Cache) {
	key := keys[0]
	c.Set(key, value(1, 1000))
	c.Set(key, value(2, 10))
	if got, ok := c.Get(key); !ok || !bytes.Equal(got, value(2, 10)) {
		t.Errorf("Get after a second Set returns %q, %v; want the second value", got, ok)
	}
	c.Set(key, value(3, 1000))
	if got, ok := c.Get(key); !ok || !bytes.Equal(got, value(3, 1000)) {
		t.Errorf("Get after a third, longer Set returns %d bytes %s, %v; want the third value", len(got), differ(got, value(3, 1000)), ok)
	}
}

func miss(t *testing.T, c gamedata.Cache) {
	if got, ok := c.Get(keys[0]); ok {
		t.Errorf("Get of a key never set returns %q, true; want a miss", got)
	}
	c.Delete(keys[1]) // holds nothing: does nothing
	for i, key := range keys[:3] {
		c.Set(key, value(i, 100))
	}
	c.Delete(keys[1])
	if got, ok := c.Get(keys[1]); ok {
		t.Errorf("Get after Delete returns %q, true; want a miss", got)
	}
	for _, i := range []int{0, 2} {
		if got, ok := c.Get(keys[i]); !ok || !bytes.Equal(got, value(i, 100)) {
			t.Errorf("Get(%q) after Delete of another key returns %q, %v; want its own value", keys[i], got, ok)
		}
	}
	if got, ok := c.Get(keys[0] + "/"); ok {
		t.Errorf("Get of a key that extends a stored one returns %q, true; want a miss", got)
	}
}

// differ says where got first differs from want.
func differ(got, want []byte) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return "differing from byte " + strconv.Itoa(i)
		}
	}
	return "cut or extended at byte " + strconv.Itoa(min(len(got), len(want)))
}
