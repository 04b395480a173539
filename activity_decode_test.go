package gamedata

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

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

// fuzzPoints returns, read with encoding/json alone, the elements of the
// array that holds the points: the member "points" or, without it, the
// only member other than partialCoverage that is a non-empty array whose
// first element is an array. A name sent twice means its last value, as
// in encoding/json and in Fields. It returns false when the body names no
// such array.
func fuzzPoints(body []byte) ([]any, bool) {
	obj, ok := fuzzObject(body)
	if !ok {
		return nil, false
	}
	if points, ok := obj["points"]; ok {
		switch a := points.(type) {
		case nil:
			return nil, true
		case []any:
			return a, true
		}
		return nil, false
	}
	var found []any
	n := 0
	for name, member := range obj {
		a, ok := member.([]any)
		if name == "partialCoverage" || !ok || len(a) == 0 {
			continue
		}
		if _, ok := a[0].([]any); ok {
			found, n = a, n+1
		}
	}
	return found, n == 1
}

// fuzzPointIs reports whether p is what encoding/json reads in elem, the
// point's seven elements: the decoder's own round trip cannot tell a
// point it read wrong, since the wrong point writes back as itself.
// PartialCoverage may also come from the body's partialCoverage array.
func fuzzPointIs(p ActivityPoint, elem any) bool {
	e, ok := elem.([]any)
	if !ok || len(e) != 7 {
		return false
	}
	number := func(v any) (float64, bool) {
		n, ok := v.(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	// Players keep their sign bit (-0 is a number); a time is a count of
	// milliseconds, -0 and 0 alike.
	same := func(got Nullable[float64], v any, bitwise bool) bool {
		g, ok := got.Get()
		if v == nil || !ok {
			return v == nil && !ok
		}
		w, ok := number(v)
		return ok && (math.Float64bits(g) == math.Float64bits(w) || !bitwise && g == w)
	}
	ms := func(t time.Time) Nullable[float64] { return Value(float64(t.UnixMilli())) }
	bound := func(t Nullable[time.Time]) Nullable[float64] {
		if v, ok := t.Get(); ok {
			return ms(v)
		}
		return Null[float64]()
	}
	flag := func(got bool, v any) bool { return v == json.Number(map[bool]string{false: "0", true: "1"}[got]) }
	return same(ms(p.Time), e[0], false) && same(p.Players, e[1], true) && flag(p.Current, e[2]) &&
		same(bound(p.IntervalStart), e[3], false) && same(bound(p.IntervalEnd), e[4], false) &&
		flag(p.Aggregation == AggregationAverage, e[5]) && (p.PartialCoverage || flag(false, e[6]))
}

func FuzzActivityHistory(f *testing.F) {
	f.Add(fuzzFixture(f, "activity_7d.json"))
	f.Add([]byte(`{"points":[[1000,12.75,0,400,1000,1,0],[2000,null,1,null,null,0,1]]}`))
	f.Add([]byte(`{"data":[[1,1,0,null,null,0,0]],"labels":["a"]}`))
	f.Add([]byte(`{"points":[[1000,5,0,null,null,0,0]],"partialCoverage":[1000,"1970-01-01T00:00:01.000999Z"]}`))
	f.Add([]byte(`{"points":[[1.7632e12,-0,0,-9007199254740992,9007199254740992,0,0]]}`))
	f.Add([]byte(`{"points":[[1000,1,0,null,null,0]]}`))
	f.Add([]byte(`{"points":[[10,5,0,null,null,0,0],[20,5,0,1011,0,1]]}`)) // a bound that starts as the time before
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
		elems, ok := fuzzPoints(body)
		if !ok || len(elems) != len(h.Points) {
			t.Fatalf("decodeActivityHistory(%q): %d points, encoding/json counts %d (found: %v)", body, len(h.Points), len(elems), ok)
		}
		// A point takes at least 16 bytes of body ("[0,0,0,0,0,0,0],"), so
		// even with append's doubling the points need no more than twice
		// their size for every 16 bytes of body.
		if room := cap(h.Points) * pointSize; room > 2*pointSize*len(body)/16+1024 {
			t.Fatalf("decodeActivityHistory(%q): %d points hold room for %d (%d bytes) from a %d-byte body", body, len(h.Points), cap(h.Points), room, len(body))
		}
		for i, p := range h.Points {
			if !fuzzPointIs(p, elems[i]) {
				t.Fatalf("decodeActivityHistory(%q): point %d is %+v; encoding/json reads %v", body, i, p, elems[i])
			}
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
