package gamedata

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"time"
)

// decodeActivityHistory decodes a response by these rules: the body is an
// object whose points are the member "points" or, failing that, its only
// array of arrays; its optional "partialCoverage" array lists timestamps,
// as Unix milliseconds or ISO 8601 strings.
//
// It is the SDK's hot path (a long range is 10^5 points), so it makes one
// pass over the bytes and parses the points straight into a presized
// slice, with no allocation per point.
func decodeActivityHistory(body []byte) (*ActivityHistory, error) {
	h := &ActivityHistory{Fields: fieldsOf(body)}
	s := scanner{b: body}
	var coverage []byte
	var arrays []span
	found := false
	err := s.object(func(name []byte) error {
		s.ws()
		switch {
		case nameIs(name, "points"):
			if found {
				return &DecodeError{Member: "points", Err: errors.New("points member appears twice")}
			}
			found = true
			var err error
			h.Points, err = s.points("points", pointsHint(body[s.i:]))
			return err
		case nameIs(name, "partialCoverage"):
			var err error
			coverage, err = s.value()
			return err
		}
		start := s.i
		v, err := s.value()
		if err != nil {
			return err
		}
		// A name sent twice means its last value, as encoding/json and
		// Fields read it.
		if isArrays := isArrayOfArrays(v); isArrays || len(arrays) > 0 {
			n := unquote(name)
			arrays = slices.DeleteFunc(arrays, func(a span) bool { return a.name == n })
			if isArrays {
				arrays = append(arrays, span{name: n, start: start, end: s.i})
			}
		}
		return nil
	})
	if err == nil {
		err = s.end()
	}
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			return nil, de
		}
		return nil, &DecodeError{Err: fmt.Errorf("activity history: %w", objectError(body, err))}
	}
	if !found {
		if len(arrays) != 1 {
			names := make([]string, len(arrays))
			for i, a := range arrays {
				names[i] = a.name
			}
			slices.Sort(names)
			return nil, &DecodeError{Err: fmt.Errorf("activity history has no points member and %d arrays of arrays %v", len(arrays), names)}
		}
		a := arrays[0]
		sub := scanner{b: body[:a.end], i: a.start}
		if h.Points, err = sub.points(a.name, pointsHint(body[a.start:a.end])); err != nil {
			return nil, err
		}
	}
	if coverage != nil {
		if h.PartialCoverage, err = decodeCoverage(coverage); err != nil {
			return nil, err
		}
		markPartial(h.Points, h.PartialCoverage)
	}
	return h, nil
}

// pointsHint estimates how many points b holds, to presize the result: one
// a '[' (less the outer one), but never more than the bytes allow, since a
// point takes at least 15 ("[0,0,0,0,0,0,0]") and a hostile body can hold
// a '[' in every byte.
func pointsHint(b []byte) int {
	return min(bytes.Count(b, []byte{'['})-1, len(b)/15+1)
}

// span is a member found in a pass over an object: its name and either
// its value or its bounds in the body.
type span struct {
	name       string
	value      []byte
	start, end int
}

// nameIs compares a raw member name with want, unescaping only when the
// name holds an escape.
func nameIs(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == want
	}
	return unquote(raw) == want
}

func isArrayOfArrays(v []byte) bool {
	if v[0] != '[' {
		return false
	}
	s := scanner{b: v, i: 1}
	s.ws()
	return s.i < len(v) && v[s.i] == '['
}

// markPartial sets PartialCoverage on the points whose time the response's
// partialCoverage array lists.
func markPartial(points []ActivityPoint, listed []time.Time) {
	if len(listed) == 0 {
		return
	}
	// Search Unix milliseconds, not times: a short list fits on the stack.
	var small [64]int64
	ms := small[:0]
	if len(listed) > len(small) {
		ms = make([]int64, 0, len(listed))
	}
	for _, t := range listed {
		ms = append(ms, t.UnixMilli())
	}
	slices.Sort(ms)
	lo, hi := ms[0], ms[len(ms)-1]
	for i := range points {
		if t := points[i].Time.UnixMilli(); t >= lo && t <= hi {
			if _, ok := slices.BinarySearch(ms, t); ok {
				points[i].PartialCoverage = true
			}
		}
	}
}

// decodeCoverage reads the optional partialCoverage array of timestamps.
func decodeCoverage(raw []byte) ([]time.Time, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '[' {
		return nil, &DecodeError{Member: "partialCoverage", Err: errors.New("want an array of timestamps")}
	}
	// One a comma, but a timestamp takes at least two bytes with its comma.
	out := make([]time.Time, 0, min(bytes.Count(raw, []byte{','})+1, len(raw)/2))
	err := eachElement(raw, func(i int, v []byte) error {
		t, err := parseTimestamp(v)
		if err != nil {
			return &DecodeError{Member: fmt.Sprintf("partialCoverage[%d]", i), Err: err}
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
