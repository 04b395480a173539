package httpcache

import (
	"container/list"
	"sync"
)

// Memory is a Store bounded in bytes that evicts the least recently used
// entry first.
type Memory struct {
	mu       sync.Mutex
	maxBytes int64
	size     int64
	order    *list.List // front is the most recently used
	entries  map[string]*list.Element
}

type memoryEntry struct {
	key   string
	value []byte
}

// NewMemory returns a Store in memory that holds at most maxBytes of keys
// and values, evicting the least recently used entries first. A value
// larger than maxBytes is not stored; maxBytes <= 0 stores nothing.
func NewMemory(maxBytes int64) *Memory {
	return &Memory{maxBytes: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

func entrySize(key string, value []byte) int64 { return int64(len(key) + len(value)) }

// Get returns the value stored under key and marks it used.
func (m *Memory) Get(key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.entries[key]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	return el.Value.(*memoryEntry).value, true
}

// Set stores value under key, evicting least recently used entries until
// everything fits.
func (m *Memory) Set(key string, value []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
	size := entrySize(key, value)
	if size > m.maxBytes {
		return
	}
	for m.size+size > m.maxBytes {
		m.remove(m.order.Back().Value.(*memoryEntry).key)
	}
	m.entries[key] = m.order.PushFront(&memoryEntry{key: key, value: value})
	m.size += size
}

// Delete removes the value stored under key.
func (m *Memory) Delete(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(key)
}

func (m *Memory) remove(key string) {
	el, ok := m.entries[key]
	if !ok {
		return
	}
	e := m.order.Remove(el).(*memoryEntry)
	delete(m.entries, key)
	m.size -= entrySize(e.key, e.value)
}
