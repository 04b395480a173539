package httpcache

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	m := NewMemory(1 << 10)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := fmt.Sprint(g, i%20)
				m.Set(k, make([]byte, 40))
				m.Get(k)
				if i%7 == 0 {
					m.Delete(k)
				}
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, m.size, int64(1<<10))
	assert.Equal(t, len(m.entries), m.order.Len())
}

// An entry saved in memory is handed out as it is, and as an encoded
// value to whoever reads the store through Get.
func TestMemorySavesEntriesAsTheyAre(t *testing.T) {
	m := NewMemory(1 << 10)
	e := sampleEntry()
	Save(m, "k", e)
	assert.Same(t, e, Load(m, "k"), "a hit neither decodes nor copies")

	raw, ok := m.Get("k")
	require.True(t, ok)
	got, err := decode(raw)
	require.NoError(t, err)
	assert.Equal(t, e.body, got.body)
	assert.Same(t, e, Load(m, "k"), "Get leaves the entry as it is")
	assert.LessOrEqual(t, int64(len("k")+len(raw)), m.size, "counted for at least its encoding")
}

// A caller that changes the bytes of a record decoded from a shared entry
// damages it: it then reads as a miss and is removed, as a damaged
// encoded value is.
func TestMemoryChangedBodyIsAMiss(t *testing.T) {
	m := NewMemory(1 << 10)
	e := sampleEntry()
	Save(m, "k", e)
	Load(m, "k").Body()[2] = 'K'
	assert.Nil(t, Load(m, "k"))
	_, ok := m.Get("k")
	assert.False(t, ok, "removed")
	assert.Zero(t, m.size)
}

// A value Set by another writer still loads, decoded, and a damaged one is
// removed.
func TestMemoryLoadsEncodedValues(t *testing.T) {
	m := NewMemory(1 << 10)
	m.Set("k", sampleEntry().Encode())
	got := Load(m, "k")
	require.NotNil(t, got)
	assert.Equal(t, sampleEntry().body, got.body)

	m.Set("k", []byte("damaged"))
	assert.Nil(t, Load(m, "k"))
	_, ok := m.Get("k")
	assert.False(t, ok, "removed")
}

// Calls that load, revalidate and save one entry at once share it without
// a race (run with -race).
func TestMemorySharedEntryConcurrent(t *testing.T) {
	m := NewMemory(1 << 12)
	Save(m, "k", sampleEntry())
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				e := Load(m, "k")
				if e == nil {
					continue
				}
				_ = e.Conditional()
				at := e.received.Add(time.Duration(g*100+i) * time.Second)
				Save(m, "k", e.Revalidated(http.Header{"Cache-Control": {"max-age=60"}}, at, at))
				_, _ = m.Get("k")
			}
		})
	}
	wg.Wait()
	assert.NotNil(t, Load(m, "k"))
}
