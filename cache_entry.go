package gamedata

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"net/http"
	"time"
)

// cacheEntry is a stored response: what RFC 9111 needs to judge its
// freshness and revalidate it, and its body.
type cacheEntry struct {
	status int
	header http.Header // only keptHeaders
	// requested and received are when the request that brought the
	// response was sent and when the response arrived: the request_time
	// and response_time of RFC 9111's age calculation.
	requested, received time.Time
	body                []byte
}

// keptHeaders are the response headers that freshness, validation and
// Vary depend on; no other header is stored.
var keptHeaders = []string{"Age", "Cache-Control", "Content-Type", "Date", "Etag", "Expires", "Last-Modified", "Vary"}

// entryVersion starts every encoded entry; an entry of another version
// reads as a miss.
const entryVersion byte = 1

func newCacheEntry(status int, h http.Header, requested, received time.Time, body []byte) *cacheEntry {
	e := &cacheEntry{status: status, header: http.Header{}, requested: requested, received: received, body: body}
	e.merge(h)
	return e
}

// merge replaces the kept headers that h carries, as a 304 updates the
// stored response (RFC 9111 §3.2).
func (e *cacheEntry) merge(h http.Header) {
	for _, name := range keptHeaders {
		if v, ok := h[name]; ok {
			e.header[name] = v
		}
	}
}

// encode lays out the version, a CRC-32C of the rest, then the status, the
// two times, the headers and the body, so that an entry damaged anywhere
// in any store reads as a miss.
func (e *cacheEntry) encode() []byte {
	n := len(e.body) + 64
	for name, values := range e.header {
		n += len(name) + 8
		for _, v := range values {
			n += len(v) + 4
		}
	}
	b := make([]byte, 5, n)
	b[0] = entryVersion
	b = binary.AppendUvarint(b, uint64(e.status))
	b = binary.AppendVarint(b, e.requested.UnixNano())
	b = binary.AppendVarint(b, e.received.UnixNano())
	b = binary.AppendUvarint(b, uint64(len(e.header)))
	for name, values := range e.header {
		b = appendString(b, name)
		b = binary.AppendUvarint(b, uint64(len(values)))
		for _, v := range values {
			b = appendString(b, v)
		}
	}
	b = appendString(b, string(e.body))
	binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], castagnoli))
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errBadEntry = errors.New("damaged or foreign cache entry")

// decodeCacheEntry reads an encoded entry. Its body shares b's memory.
func decodeCacheEntry(b []byte) (*cacheEntry, error) {
	if len(b) < 5 || b[0] != entryVersion || binary.BigEndian.Uint32(b[1:5]) != crc32.Checksum(b[5:], castagnoli) {
		return nil, errBadEntry
	}
	r := entryReader{b: b[5:]}
	e := &cacheEntry{status: int(r.uvarint()), header: http.Header{}}
	e.requested = time.Unix(0, r.varint())
	e.received = time.Unix(0, r.varint())
	for range r.count() {
		name := r.string()
		values := make([]string, r.count())
		for i := range values {
			values[i] = r.string()
		}
		e.header[name] = values
	}
	e.body = r.bytes()
	if r.bad || len(r.b) != 0 {
		return nil, errBadEntry
	}
	return e, nil
}

// entryReader reads the fields of an encoded entry; past the first fault
// it returns zero values and sets bad.
type entryReader struct {
	b   []byte
	bad bool
}

func (r *entryReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *entryReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a number of items, bounded by the bytes left so that a
// damaged count cannot make a huge allocation.
func (r *entryReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return 0
	}
	return int(n)
}

func (r *entryReader) bytes() []byte {
	n := r.count()
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *entryReader) string() string { return string(r.bytes()) }
