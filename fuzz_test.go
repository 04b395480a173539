package gamedata

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fuzz targets below state properties of the decoders, the timestamp
// parser, the sanitizer and the URL builder. `go test` runs their f.Add
// seeds and the curated corpora in testdata/fuzz/<FuzzName>/; run one with
//
//	go test -run='^$' -fuzz='^FuzzActivityHistory$' -fuzztime=60s .

// fuzzNestingBomb is 100,000 unclosed brackets: a body that would exhaust
// the stack of a recursive decoder without a depth limit.
var fuzzNestingBomb = strings.Repeat("[", 100_000)

// fuzzFixture reads a fixture of testdata/ as a seed.
func fuzzFixture(f *testing.F, name string) []byte {
	f.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(f, err)
	return b
}

// fuzzObject decodes a JSON document that is an object, with numbers kept
// as json.Number, so a number too large for a float64 (which the decoders
// keep raw) does not make the check fail where the code under test
// succeeded. It returns false when b is not valid JSON or not an object.
func fuzzObject(b []byte) (map[string]any, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil, false
	}
	obj, ok := v.(map[string]any)
	return obj, ok
}

// fuzzEncodePoint writes a point back in the service's seven-element form:
// [timeMs, players|null, current 0/1, start|null, end|null, aggregation
// 0/1, partial 0/1]. It is written from the documented form, not from the
// decoder, so a point that cannot be written back (absent players, an
// aggregation other than 0 and 1) fails to decode again.
//
// With respell, the same values are written in another valid spelling:
// white space around every element, times with a ".0" fraction and
// players in exponent form, which the decoder documents as equivalent.
func fuzzEncodePoint(p ActivityPoint, respell bool) string {
	millis := func(t time.Time) string {
		s := strconv.FormatInt(t.UnixMilli(), 10)
		if respell {
			s += ".0"
		}
		return s
	}
	bound := func(n Nullable[time.Time]) string {
		if t, ok := n.Get(); ok {
			return millis(t)
		}
		return "null"
	}
	bit := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	players := "null"
	if v, ok := p.Players.Get(); ok {
		format := byte('g')
		if respell {
			format = 'e'
		}
		players = strconv.FormatFloat(v, format, -1, 64)
	}
	elems := []string{
		millis(p.Time), players, bit(p.Current), bound(p.IntervalStart), bound(p.IntervalEnd),
		strconv.Itoa(int(p.Aggregation)), bit(p.PartialCoverage),
	}
	if respell {
		return "[ " + strings.Join(elems, " ,\n\t") + "\r\n]"
	}
	return "[" + strings.Join(elems, ",") + "]"
}

// fuzzAllocated returns the bytes the program allocated on the heap so
// far.
func fuzzAllocated() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// fuzzBigBody is the size from which a decoder's allocations are checked
// against the body's size: below it, the runtime's per-span accounting is
// too coarse for the check to be fair.
const fuzzBigBody = 64 << 10

// fuzzCheckAllocations fails when decoding a large body allocated more
// than 32 bytes per byte of body: a hostile body (a nesting bomb, a string
// full of brackets) must not turn into gigabytes of allocation.
func fuzzCheckAllocations(t *testing.T, what string, body []byte, decode func()) {
	t.Helper()
	if len(body) < fuzzBigBody {
		decode()
		return
	}
	before := fuzzAllocated()
	decode()
	if n := fuzzAllocated() - before; n > 32*uint64(len(body)) {
		t.Errorf("%s of a %d-byte body starting %q allocated %d bytes, more than 32 per byte of body", what, len(body), body[:64], n)
	}
}

// fuzzPointsLen counts, with encoding/json alone, the elements of the
// array that holds the points: the member "points" or, without it, the
// only member other than partialCoverage that is a non-empty array whose
// first element is an array. A name sent twice means its last value, as
// in encoding/json and in Fields. It returns false when the body names no
// such array.
func fuzzPointsLen(body []byte) (int, bool) {
	obj, ok := fuzzObject(body)
	if !ok {
		return 0, false
	}
	if points, ok := obj["points"]; ok {
		switch a := points.(type) {
		case nil:
			return 0, true
		case []any:
			return len(a), true
		}
		return 0, false
	}
	n, found := 0, 0
	for name, member := range obj {
		a, ok := member.([]any)
		if name == "partialCoverage" || !ok || len(a) == 0 {
			continue
		}
		if _, ok := a[0].([]any); ok {
			n, found = len(a), found+1
		}
	}
	return n, found == 1
}

func FuzzActivityHistory(f *testing.F) {
	f.Add(fuzzFixture(f, "activity_7d.json"))
	f.Add([]byte(`{"points":[[1000,12.75,0,400,1000,1,0],[2000,null,1,null,null,0,1]]}`))
	f.Add([]byte(`{"data":[[1,1,0,null,null,0,0]],"labels":["a"]}`))
	f.Add([]byte(`{"points":[[1000,5,0,null,null,0,0]],"partialCoverage":[1000,"1970-01-01T00:00:01.000999Z"]}`))
	f.Add([]byte(`{"points":[[1.7632e12,-0,0,-9007199254740992,9007199254740992,0,0]]}`))
	f.Add([]byte(`{"points":[[1000,1,0,null,null,0]]}`))
	f.Add([]byte(`{"points":null}`))
	f.Add([]byte(`{"range":` + fuzzNestingBomb))

	pointSize := int(reflect.TypeFor[ActivityPoint]().Size())

	f.Fuzz(func(t *testing.T, body []byte) {
		var h *ActivityHistory
		var err error
		fuzzCheckAllocations(t, "decodeActivityHistory", body, func() { h, err = decodeActivityHistory(body) })
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("decodeActivityHistory(%q): error %T %v, want a *DecodeError", body, err, err)
			}
			return
		}
		if n, ok := fuzzPointsLen(body); !ok || n != len(h.Points) {
			t.Fatalf("decodeActivityHistory(%q): %d points, encoding/json counts %d (found: %v)", body, len(h.Points), n, ok)
		}
		// A point takes at least 16 bytes of body ("[0,0,0,0,0,0,0],"), so
		// even with append's doubling the points need no more than twice
		// their size for every 16 bytes of body.
		if room := cap(h.Points) * pointSize; room > 2*pointSize*len(body)/16+1024 {
			t.Fatalf("decodeActivityHistory(%q): %d points hold room for %d (%d bytes) from a %d-byte body", body, len(h.Points), cap(h.Points), room, len(body))
		}
		for i, p := range h.Points {
			if p.Time.Location() != time.UTC {
				t.Errorf("decodeActivityHistory(%q): point %d time %v is not in UTC", body, i, p.Time)
			}
			for _, respell := range []bool{false, true} {
				enc := fuzzEncodePoint(p, respell)
				again, err := decodeActivityHistory([]byte(`{"points":[` + enc + `]}`))
				if err != nil {
					t.Fatalf("decodeActivityHistory(%q): point %d %+v re-encodes to %q, which does not decode: %v", body, i, p, enc, err)
				}
				q := again.Points[0]
				got, _ := q.Players.Get()
				want, _ := p.Players.Get()
				if q != p || math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("decodeActivityHistory(%q): point %d %+v re-encodes to %q, which decodes to %+v", body, i, p, enc, q)
				}
			}
		}
	})
}

// fuzzItemsLen counts, with encoding/json alone, the elements of the
// array of items: the only array member other than pagination, or the
// member "items" when there are several. A name sent twice means its last
// value, as in encoding/json and in Fields. It returns false when there is
// no such array.
func fuzzItemsLen(body []byte) (int, bool) {
	obj, ok := fuzzObject(body)
	if !ok {
		return 0, false
	}
	var arrays [][]any
	for name, member := range obj {
		if a, ok := member.([]any); ok && name != "pagination" {
			arrays = append(arrays, a)
		}
	}
	if len(arrays) == 1 {
		return len(arrays[0]), true
	}
	if a, ok := obj["items"].([]any); ok {
		return len(a), true
	}
	return 0, false
}

func FuzzDecodePage(f *testing.F) {
	f.Add(fuzzFixture(f, "dashboard_game_page1.json"), 1)
	f.Add(fuzzFixture(f, "dashboard_servers.json"), 1)
	f.Add([]byte(`{"entries":[{"id":7},{"kind":"game","ident":"x","id":null}],"pagination":{"hasNext":false,"page":null}}`), 3)
	f.Add([]byte(`{"items":[],"other":[1],"pagination":{"hasNext":true}}`), 1)
	f.Add([]byte(`{"items":[{"kind":"game"}],"pagination":{"hasNext":false}}`), 1)
	f.Add([]byte(`{"items":[],"pagination":{"hasNext":true,"page":2}}`), 1)
	f.Add([]byte(`{"pagination":{"hasNext":false},"items":`+fuzzNestingBomb), 1)

	f.Fuzz(func(t *testing.T, body []byte, requested int) {
		var p *Page[DashboardEntry]
		var err error
		fuzzCheckAllocations(t, "decodePage", body, func() { p, err = decodePage(body, requested, decodeDashboardEntry) })
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) && !errors.Is(err, ErrPageOutOfRange) {
				t.Fatalf("decodePage(%q, %d): error %T %v, want a *DecodeError or ErrPageOutOfRange", body, requested, err, err)
			}
			return
		}
		if n, ok := fuzzItemsLen(body); !ok || n != len(p.Items) {
			t.Fatalf("decodePage(%q, %d): %d items, encoding/json counts %d (found: %v)", body, requested, len(p.Items), n, ok)
		}
		if p.Pagination.Page != requested {
			t.Errorf("decodePage(%q, %d): page %d, want the page asked for", body, requested, p.Pagination.Page)
		}
		for i, e := range p.Items {
			if e.ID == "" && (e.Kind == "" || e.Ident == "") {
				t.Errorf("decodePage(%q, %d): item %d %+v has no identity", body, requested, i, e)
			}
		}
	})
}

func FuzzPathSegment(f *testing.F) {
	for _, id := range []string{
		"203.0.113.7:27015", "a/b", "../x", "a?b#c", "100% fun", "%2e%2e", "...",
		"", ".", "..", "a;b,c=d&e+f@g$h", "宇宙\xff\x00\x7f", "//", "?", "#",
	} {
		f.Add(id, "game")
	}
	c, err := NewClient("https://example.com/base")
	require.NoError(f, err)

	f.Fuzz(func(t *testing.T, id, kind string) {
		err := checkSegments([]string{"server id"}, id)
		switch id {
		case "", ".", "..":
			if err == nil {
				t.Fatalf("checkSegments accepts %q", id)
			}
			return
		}
		if err != nil {
			t.Fatalf("checkSegments refuses %q: %v", id, err)
		}

		u := c.endpoint(nil, "api", "servers", id)
		escaped := u.EscapedPath()
		segment, ok := strings.CutPrefix(escaped, "/base/api/servers/")
		if !ok {
			t.Fatalf("id %q: escaped path %q is not under /base/api/servers/", id, escaped)
		}
		if strings.ContainsAny(segment, "/?#") {
			t.Fatalf("id %q: escaped segment %q holds /, ? or #", id, segment)
		}
		if back, err := url.PathUnescape(segment); err != nil || back != id {
			t.Fatalf("id %q: escaped segment %q unescapes to %q, %v", id, segment, back, err)
		}
		parsed, err := url.Parse(u.String())
		if err != nil {
			t.Fatalf("id %q: url.Parse(%q): %v", id, u.String(), err)
		}
		if parsed.Path != u.Path || parsed.EscapedPath() != escaped {
			t.Fatalf("id %q: %q parses to path %q (escaped %q), want %q (escaped %q)", id, u.String(), parsed.Path, parsed.EscapedPath(), u.Path, escaped)
		}
		if parsed.RawQuery != "" || parsed.ForceQuery || parsed.Fragment != "" || parsed.RawFragment != "" {
			t.Fatalf("id %q: %q parses with query %q or fragment %q", id, u.String(), parsed.RawQuery, parsed.Fragment)
		}

		// Two segments, as in a package path, stay two segments.
		if checkSegments([]string{"kind", "ident"}, kind, id) != nil {
			return
		}
		u = c.endpoint(nil, "api", "packages", kind, id)
		rest, ok := strings.CutPrefix(u.EscapedPath(), "/base/api/packages/")
		parts := strings.Split(rest, "/")
		if !ok || len(parts) != 2 {
			t.Fatalf("kind %q, ident %q: escaped path %q is not two segments under /base/api/packages/", kind, id, u.EscapedPath())
		}
		for i, want := range []string{kind, id} {
			if got, err := url.PathUnescape(parts[i]); err != nil || got != want {
				t.Fatalf("kind %q, ident %q: segment %q unescapes to %q, %v", kind, id, parts[i], got, err)
			}
		}
	})
}

// nestingBombs are 100,000 levels of nesting, bare and where a body's
// arrays are.
var nestingBombs = map[string][]byte{
	"bare":      []byte(fuzzNestingBomb),
	"closed":    []byte(fuzzNestingBomb + strings.Repeat("]", 100_000)),
	"in points": []byte(`{"points":` + fuzzNestingBomb),
	"in items":  []byte(`{"pagination":{"hasNext":false},"items":[` + fuzzNestingBomb + strings.Repeat("]", 100_001) + `}`),
}

// TestNestingBombFails checks that 100,000 levels of nesting are refused,
// with an error and without exhausting the stack, by every decoder a
// response body reaches. How fast is BenchmarkNestingBomb's question.
func TestNestingBombFails(t *testing.T) {
	t.Parallel()
	for name, body := range nestingBombs {
		_, err := decodeActivityHistory(body)
		assert.Error(t, err, "activity history, %s", name)
		_, err = decodePage(body, 1, decodeDashboardEntry)
		assert.Error(t, err, "directory page, %s", name)
	}
}
