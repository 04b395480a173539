package cachetest

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata"
)

// concurrent has writers set, get and delete a few shared keys at once.
// Every value names its key, writer and round, so a Get can tell a whole
// value of its key from a mix or another key's.
func concurrent(t *testing.T, c gamedata.Cache) {
	const workers, rounds, shared = 8, 200, 4
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				k := (w + r) % shared
				switch r % 5 {
				case 0, 1:
					c.Set(keys[k], tagged(k, w, r))
				case 2, 3:
					if got, ok := c.Get(keys[k]); ok && !wholeValueOf(k, got) {
						t.Errorf("concurrent Get(%q) returns %.40q…, %d bytes: not a whole value Set stored under that key", keys[k], got, len(got))
					}
				case 4:
					c.Delete(keys[k])
				}
			}
		})
	}
	wg.Wait()
	for k := range shared {
		if got, ok := c.Get(keys[k]); ok && !wholeValueOf(k, got) {
			t.Errorf("Get(%q) after the writers returns %.40q…, %d bytes: not a whole value Set stored under that key", keys[k], got, len(got))
		}
	}
}

// tagged is the value writer w sets under key k in round r: a header that
// names them, then 16 KiB drawn from them.
func tagged(k, w, r int) []byte {
	b := fmt.Appendf(nil, "%d:%d:%d|", k, w, r)
	for j := range 16 << 10 {
		b = append(b, byte(j*31+k*7+w*3+r))
	}
	return b
}

// wholeValueOf reports whether v is a value tagged made for key k.
func wholeValueOf(k int, v []byte) bool {
	var key, w, r int
	if _, err := fmt.Sscanf(string(v[:min(len(v), 40)]), "%d:%d:%d|", &key, &w, &r); err != nil {
		return false
	}
	return key == k && bytes.Equal(v, tagged(k, w, r))
}
