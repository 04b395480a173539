package httpcache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"maps"
	"net/http"
	"time"
)

// Entry is a stored response: what RFC 9111 needs to judge its freshness
// and revalidate it, and its body.
type Entry struct {
	status int
	// requested and received are when the request that brought the
	// response was sent and when the response arrived: the request_time
	// and response_time of RFC 9111's age calculation.
	requested, received time.Time
	// freshness is derived from the headers when they change, so that a
	// hit parses no header.
	freshness freshness
	body      []byte
	// bodySum is the CRC-32C of body, checked when the memory store
	// hands a shared entry out: a caller that changed the bytes of a
	// record decoded from it (Fields.JSON) damaged the entry, which must
	// then read as a miss, as a damaged encoded entry does.
	bodySum uint32
	// header holds only keptHeaders. A decoded entry leaves it nil and
	// keeps the encoded headers in rawHeader until they are needed, for a
	// revalidation.
	header    http.Header
	rawHeader []byte
}

// freshness is what the freshness and stale-if-error rules need, derived
// from the headers and the two times.
type freshness struct {
	lifetime, initialAge time.Duration
	staleIfError         time.Duration // -1 when the service allowed none
	noCache              bool
	mustRevalidate       bool
}

// keptHeaders are the response headers that freshness, validation and
// Vary depend on; no other header is stored.
var keptHeaders = []string{"Age", "Cache-Control", "Content-Type", "Date", "Etag", "Expires", "Last-Modified", "Vary"}

// entryVersion starts every encoded entry; an entry of another version
// reads as a miss.
const entryVersion byte = 1

// NewEntry returns the entry of a response with status, headers h and
// body, requested and received at the given times, and whether the
// response may be stored at all. Its Cache-Control is parsed once, for
// both.
func NewEntry(status int, h http.Header, requested, received time.Time, body []byte) (*Entry, bool) {
	cc := parseCacheControl(h)
	if !storable(status, h, cc) {
		return nil, false
	}
	e := &Entry{status: status, header: http.Header{}, body: body, bodySum: crc32.Checksum(body, castagnoli)}
	e.keep(h)
	e.requested, e.received = requested, received
	e.freshness = deriveFreshness(e.header, cc, requested, received)
	return e, true
}

// Revalidated returns the entry as a 304 with headers h updates it (RFC
// 9111 §3.2): the kept headers h carries replace the stored ones, and the
// times are those of the exchange that brought it. e itself is left as it
// is, since a store may be handing it to other calls at the same time.
func (e *Entry) Revalidated(h http.Header, requested, received time.Time) *Entry {
	r := *e
	r.header, r.rawHeader = maps.Clone(e.headers()), nil
	r.keep(h)
	r.requested, r.received = requested, received
	r.freshness = deriveFreshness(r.header, parseCacheControl(r.header), requested, received)
	return &r
}

// keep copies the kept headers that h carries into the entry's.
func (e *Entry) keep(h http.Header) {
	stored := e.headers()
	for _, name := range keptHeaders {
		if v, ok := h[name]; ok {
			stored[name] = v
		}
	}
}

// Body returns the stored body.
func (e *Entry) Body() []byte { return e.body }

// Status returns the stored status.
func (e *Entry) Status() int { return e.status }

// Header returns a copy of the kept headers, which its caller may change.
// It leaves e as it is, since e may be shared.
func (e *Entry) Header() http.Header {
	if e.header != nil {
		return e.header.Clone()
	}
	h := http.Header{}
	r := entryReader{b: e.rawHeader}
	r.header(h)
	return h
}

// headers returns the kept headers, decoding them on first use.
func (e *Entry) headers() http.Header {
	if e.header == nil {
		e.header = http.Header{}
		r := entryReader{b: e.rawHeader}
		r.header(e.header)
	}
	return e.header
}

// castagnoli is the CRC-32C table of the checksums of entries and of the
// disk store's files.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Encode lays out the version, a CRC-32C of the rest, then the status, the
// two times, the freshness, the body and the headers, so that an entry
// damaged anywhere in any store reads as a miss.
func (e *Entry) Encode() []byte {
	header := e.headers()
	b := make([]byte, 5, e.size())
	b[0] = entryVersion
	b = binary.AppendUvarint(b, uint64(e.status))
	b = binary.AppendVarint(b, e.requested.UnixNano())
	b = binary.AppendVarint(b, e.received.UnixNano())
	f := e.freshness
	b = binary.AppendVarint(b, int64(f.lifetime))
	b = binary.AppendVarint(b, int64(f.initialAge))
	b = binary.AppendVarint(b, int64(f.staleIfError))
	b = append(b, btoi8(f.noCache)|btoi8(f.mustRevalidate)<<1)
	b = appendString(b, string(e.body))
	b = binary.AppendUvarint(b, uint64(len(header)))
	for name, values := range header {
		b = appendString(b, name)
		b = binary.AppendUvarint(b, uint64(len(values)))
		for _, v := range values {
			b = appendString(b, v)
		}
	}
	binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], castagnoli))
	return b
}

// size is about the length of the encoded entry, a little more: what an
// entry counts for against a store's bound.
func (e *Entry) size() int {
	n := len(e.body) + 64
	for name, values := range e.headers() {
		n += len(name) + 8
		for _, v := range values {
			n += len(v) + 4
		}
	}
	return n
}

func btoi8(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errBadEntry = errors.New("damaged or foreign cache entry")

// Load returns the entry stored under key, or nil; an entry that does not
// decode, or that holds another status than 200, is removed. The entry
// may be shared with other calls: it is not to be changed.
func Load(s Store, key string) *Entry {
	if m, ok := s.(*Memory); ok {
		return m.load(key)
	}
	raw, ok := s.Get(key)
	if !ok {
		return nil
	}
	e := decodeStored(raw)
	if e == nil {
		s.Delete(key)
	}
	return e
}

// decodeStored is the entry encoded in b when it is one the client could
// have stored: one that decodes and holds a 200. Otherwise it is nil, and
// the value is to be removed.
func decodeStored(b []byte) *Entry {
	e, err := decode(b)
	if err != nil || e.status != http.StatusOK {
		return nil
	}
	return e
}

// Save stores e under key: in a Memory store as it is, shared, so that a
// hit neither decodes nor copies it; in any other store encoded.
func Save(s Store, key string, e *Entry) {
	if m, ok := s.(*Memory); ok {
		m.save(key, e)
		return
	}
	s.Set(key, e.Encode())
}

// decode reads an encoded entry. Its body shares b's memory; its headers
// are checked but decoded only when needed.
func decode(b []byte) (*Entry, error) {
	if len(b) < 5 || b[0] != entryVersion || binary.BigEndian.Uint32(b[1:5]) != crc32.Checksum(b[5:], castagnoli) {
		return nil, errBadEntry
	}
	r := entryReader{b: b[5:]}
	e := &Entry{status: int(r.uvarint())}
	e.requested = time.Unix(0, r.varint())
	e.received = time.Unix(0, r.varint())
	e.freshness = freshness{
		lifetime:     time.Duration(r.varint()),
		initialAge:   time.Duration(r.varint()),
		staleIfError: time.Duration(r.varint()),
	}
	flags := r.byte()
	e.freshness.noCache, e.freshness.mustRevalidate = flags&1 != 0, flags&2 != 0
	e.body = r.bytes()
	e.bodySum = crc32.Checksum(e.body, castagnoli)
	e.rawHeader = r.b
	r.header(nil)
	if r.bad || len(r.b) != 0 || flags > 3 {
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

func (r *entryReader) uvarint() uint64 { return readVarint(r, binary.Uvarint) }
func (r *entryReader) varint() int64   { return readVarint(r, binary.Varint) }

// readVarint reads a number with decode, binary.Uvarint or binary.Varint.
func readVarint[T uint64 | int64](r *entryReader, decode func([]byte) (T, int)) T {
	v, n := decode(r.b)
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

func (r *entryReader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// header reads the encoded headers into h, or only checks them when h is
// nil.
func (r *entryReader) header(h http.Header) {
	for range r.count() {
		name := r.bytes()
		n := r.count()
		var values []string
		if h != nil {
			values = make([]string, 0, n)
		}
		for range n {
			v := r.bytes()
			if h != nil {
				values = append(values, string(v))
			}
		}
		if h != nil {
			h[string(name)] = values
		}
	}
}
