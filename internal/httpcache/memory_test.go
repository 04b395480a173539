package httpcache

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMemoryCacheEvictsLeastRecentlyUsed(t *testing.T) {
	c := NewMemory(30) // three entries of a 1-byte key and a 9-byte value
	value := []byte("123456789")
	c.Set("a", value)
	c.Set("b", value)
	c.Set("c", value)
	_, ok := c.Get("a") // a is now the most recently used
	assert.True(t, ok)
	c.Set("d", value)
	_, ok = c.Get("b")
	assert.False(t, ok, "b, the least recently used, is evicted")
	for _, k := range []string{"a", "c", "d"} {
		_, ok := c.Get(k)
		assert.True(t, ok, k)
	}
}

func TestMemoryCacheBounds(t *testing.T) {
	c := NewMemory(10)
	c.Set("k", []byte("0123456789"))
	_, ok := c.Get("k")
	assert.False(t, ok, "an entry larger than the cache is not stored")

	c.Set("k", []byte("01234"))
	c.Set("k", []byte("012345678"))
	got, ok := c.Get("k")
	assert.True(t, ok)
	assert.Equal(t, "012345678", string(got), "a replaced value is counted once")
	c.Delete("k")
	_, ok = c.Get("k")
	assert.False(t, ok)
	assert.Zero(t, c.size)

	none := NewMemory(0)
	none.Set("k", nil)
	_, ok = none.Get("k")
	assert.False(t, ok)
}

func TestMemoryCacheConcurrent(t *testing.T) {
	c := NewMemory(1 << 10)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := fmt.Sprint(g, i%20)
				c.Set(k, make([]byte, 40))
				c.Get(k)
				if i%7 == 0 {
					c.Delete(k)
				}
			}
		})
	}
	wg.Wait()
	m := c
	assert.LessOrEqual(t, m.size, int64(1<<10))
	assert.Equal(t, len(m.entries), m.order.Len())
}
