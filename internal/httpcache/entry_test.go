package httpcache

import (
	"encoding/binary"
	"hash/crc32"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleEntry() *Entry {
	h := http.Header{
		"Etag":          {`"v1"`},
		"Cache-Control": {"max-age=60, stale-if-error=30", "private, must-revalidate"},
		"Set-Cookie":    {"dropped=1"},
	}
	at := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	e, _ := NewEntry(200, h, at, at.Add(20*time.Millisecond), []byte(`{"kind":"game","ident":"x"}`))
	return e
}

func TestCacheEntryRoundTrip(t *testing.T) {
	e := sampleEntry()
	got, err := decode(e.Encode())
	require.NoError(t, err)
	assert.Equal(t, 200, got.status)
	assert.True(t, e.requested.Equal(got.requested))
	assert.True(t, e.received.Equal(got.received))
	assert.Equal(t, e.freshness, got.freshness)
	assert.Nil(t, got.header, "headers are decoded only when needed")
	assert.Equal(t, http.Header{"Etag": {`"v1"`}, "Cache-Control": {"max-age=60, stale-if-error=30", "private, must-revalidate"}}, got.headers(), "only the kept headers are stored")
	assert.Equal(t, e.body, got.body)
}

// Every damage an entry can take in a store reads as an error, never as a
// different entry: each byte changed, each truncation, another version.
func TestCacheEntryDamage(t *testing.T) {
	good := sampleEntry().Encode()
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0x41
		_, err := decode(b)
		assert.ErrorIs(t, err, errBadEntry, "byte %d changed", i)
	}
	for n := range len(good) {
		_, err := decode(good[:n])
		assert.ErrorIs(t, err, errBadEntry, "truncated to %d bytes", n)
	}
	_, err := decode(append(append([]byte(nil), good...), 0))
	assert.ErrorIs(t, err, errBadEntry, "a byte appended")
}

func TestCacheEntryRevalidated(t *testing.T) {
	stored := sampleEntry()
	before := *stored
	before.header = stored.header.Clone()
	later := stored.received.Add(time.Minute)
	e := stored.Revalidated(http.Header{"Cache-Control": {"max-age=120"}, "Date": {"Sun, 22 Nov 2026 12:01:00 GMT"}, "Content-Length": {"0"}}, later, later)
	assert.Equal(t, &before, stored, "the stored entry, which a store may share, is left as it was")
	assert.Equal(t, later, e.received)
	assert.Equal(t, 120*time.Second, e.freshness.lifetime)
	assert.Equal(t, []string{"max-age=120"}, e.header["Cache-Control"])
	assert.Equal(t, `"v1"`, e.header.Get("Etag"), "a header the 304 left out is kept")
	assert.Equal(t, "Sun, 22 Nov 2026 12:01:00 GMT", e.header.Get("Date"))
	assert.Empty(t, e.header.Get("Content-Length"))
}

// A damaged entry with a matching checksum, as a writer with a bug would
// store it, still reads as an error: each field cut short.
func TestCacheEntryCutWithChecksum(t *testing.T) {
	good := sampleEntry().Encode()
	for n := 5; n < len(good); n++ {
		b := append([]byte(nil), good[:n]...)
		binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], castagnoli))
		_, err := decode(b)
		assert.ErrorIs(t, err, errBadEntry, "cut to %d bytes", n)
	}
}

// An entry of another status than 200, which the client never stores, is
// a miss in every store, and is removed.
func TestLoadRefusesAnotherStatus(t *testing.T) {
	disk, err := OpenDisk(t.TempDir())
	require.NoError(t, err)
	for name, s := range map[string]Store{"memory": NewMemory(1 << 10), "disk": disk} {
		e := sampleEntry()
		e.status = http.StatusNonAuthoritativeInfo
		s.Set("k", e.Encode())
		assert.Nil(t, Load(s, "k"), name)
		_, ok := s.Get("k")
		assert.False(t, ok, "%s: removed", name)
	}
}
