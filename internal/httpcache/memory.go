package httpcache

import (
	"container/list"
	"hash/crc32"
	"sync"
)

// Memory is a Store bounded in bytes that evicts the least recently used
// entry first. Besides encoded values (Get, Set), it keeps the entries the
// client saves (Save) as they are, so a hit costs neither a decoding nor
// a checksum of the headers; Get encodes such an entry when asked.
type Memory struct {
	mu       sync.Mutex
	maxBytes int64
	size     int64
	order    *list.List // front is the most recently used
	entries  map[string]*list.Element
}

// memoryEntry holds an encoded value, or an entry and its encoding once
// Get made it.
type memoryEntry struct {
	key   string
	value []byte
	entry *Entry
	size  int64
}

// NewMemory returns a Store in memory that holds at most maxBytes of keys
// and values, evicting the least recently used entries first. A value
// larger than maxBytes is not stored; maxBytes <= 0 stores nothing. An
// entry saved as it is counts for its key, body and kept headers, and a
// little more.
func NewMemory(maxBytes int64) *Memory {
	return &Memory{maxBytes: maxBytes, order: list.New(), entries: map[string]*list.Element{}}
}

// Get returns the value stored under key and marks it used.
func (m *Memory) Get(key string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.entries[key]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	me := el.Value.(*memoryEntry)
	if me.value == nil {
		me.value = me.entry.Encode()
	}
	return me.value, true
}

// Set stores value under key, evicting least recently used entries until
// everything fits.
func (m *Memory) Set(key string, value []byte) {
	m.put(&memoryEntry{key: key, value: value, size: int64(len(key) + len(value))})
}

// save stores e under key as it is.
func (m *Memory) save(key string, e *Entry) {
	m.put(&memoryEntry{key: key, entry: e, size: int64(len(key) + e.size())})
}

func (m *Memory) put(me *memoryEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.remove(me.key)
	if me.size > m.maxBytes {
		return
	}
	for m.size+me.size > m.maxBytes {
		m.remove(m.order.Back().Value.(*memoryEntry).key)
	}
	m.entries[me.key] = m.order.PushFront(me)
	m.size += me.size
}

// load returns the entry stored under key, as Load does: decoded from a
// value Set stored, or the entry save stored, unless its body changed.
// The checks run outside the lock: a body may be megabytes.
func (m *Memory) load(key string) *Entry {
	me := m.use(key)
	if me == nil {
		return nil
	}
	e := me.entry
	if e == nil {
		e = decodeStored(me.value)
	} else if crc32.Checksum(e.body, castagnoli) != e.bodySum {
		e = nil
	}
	if e == nil {
		m.drop(me)
	}
	return e
}

// use returns what is stored under key, if anything, and marks it used.
func (m *Memory) use(key string) *memoryEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.entries[key]
	if !ok {
		return nil
	}
	m.order.MoveToFront(el)
	return el.Value.(*memoryEntry)
}

// drop removes me, unless another value has replaced it since.
func (m *Memory) drop(me *memoryEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.entries[me.key]; ok && el.Value == me {
		m.remove(me.key)
	}
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
	m.size -= e.size
}
