package gamedata

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
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
				return &DecodeError{Member: "points", Index: -1, Err: errors.New("points member appears twice")}
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
			n := memberName(name)
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
		return nil, &DecodeError{Index: -1, Err: fmt.Errorf("activity history: %w", objectError(body, err))}
	}
	if !found {
		if len(arrays) != 1 {
			names := make([]string, len(arrays))
			for i, a := range arrays {
				names[i] = a.name
			}
			slices.Sort(names)
			return nil, &DecodeError{Index: -1, Err: fmt.Errorf("activity history has no points member and %d arrays of arrays %v", len(arrays), names)}
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

// span is a member found in a pass over an object: its name and either
// its value or its bounds in the body.
// pointsHint estimates how many points b holds, to presize the result: one
// a '[' (less the outer one), but never more than the bytes allow, since a
// point takes at least 15 ("[0,0,0,0,0,0,0]") and a hostile body can hold
// a '[' in every byte.
func pointsHint(b []byte) int {
	return min(bytes.Count(b, []byte{'['})-1, len(b)/15+1)
}

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
	return memberName(raw) == want
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

var pointElements = [7]string{"time", "players", "current flag", "interval start", "interval end", "aggregation flag", "partial-coverage flag"}

// points parses an array of seven-element points; hint presizes the
// result.
func (s *scanner) points(member string, hint int) ([]ActivityPoint, error) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		v, err := s.value()
		if err != nil {
			return nil, err
		}
		return nil, &DecodeError{Member: member, Index: -1, Err: fmt.Errorf("got %s, want an array of seven-element arrays", clip(v))}
	}
	if s.isNull() {
		return nil, nil // no history, not an empty one
	}
	out := make([]ActivityPoint, 0, max(hint, 0))
	err := s.array(func() error {
		// make has zeroed the capacity already: grow the length into it
		// rather than append a zero point.
		if len(out) < cap(out) {
			out = out[:len(out)+1]
		} else {
			out = append(out, ActivityPoint{})
		}
		p := &out[len(out)-1]
		if start := s.i; !s.fastPoint(p) {
			s.i, *p = start, ActivityPoint{}
			var err error
			if *p, err = s.point(member, len(out)-1); err != nil {
				out = out[:len(out)-1]
				return err
			}
		}
		return nil
	})
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			return nil, de
		}
		return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", member, len(out)), Index: len(out), Err: err}
	}
	return out, nil
}

// fastPoint parses a point written the usual way, into p: seven elements,
// integers for times and flags, numbers of at most 15 digits. It reports
// false, having consumed some of the input, for anything else; point then
// reads it again and says exactly what is wrong.
func (s *scanner) fastPoint(p *ActivityPoint) bool {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		return false
	}
	s.i++
	s.ws()
	ms, ok := s.fastInt()
	if !ok || !s.comma() {
		return false
	}
	p.Time = time.UnixMilli(ms).UTC()
	if s.isNull() {
		p.Players = Null[float64]()
	} else if f, ok := s.fastNumber(); ok {
		p.Players = Value(f)
	} else {
		return false
	}
	if !s.comma() || !s.fastFlag(&p.Current) || !s.comma() ||
		!s.fastNullableMillis(&p.IntervalStart) || !s.comma() ||
		!s.fastNullableMillis(&p.IntervalEnd) || !s.comma() {
		return false
	}
	var avg bool
	if !s.fastFlag(&avg) || !s.comma() || !s.fastFlag(&p.PartialCoverage) {
		return false
	}
	if avg {
		p.Aggregation = AggregationAverage
	}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ']' {
		return false
	}
	s.i++
	return true
}

// comma consumes a comma and the white space around it.
func (s *scanner) comma() bool {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != ',' {
		return false
	}
	s.i++
	s.ws()
	return true
}

func (s *scanner) fastFlag(dst *bool) bool {
	if s.i+1 >= len(s.b) || (s.b[s.i] != '0' && s.b[s.i] != '1') || isNumberByte(s.b[s.i+1]) {
		return false
	}
	*dst = s.b[s.i] == '1'
	s.i++
	return true
}

func (s *scanner) fastNullableMillis(dst *Nullable[time.Time]) bool {
	if s.isNull() {
		*dst = Null[time.Time]()
		return true
	}
	ms, ok := s.fastInt()
	if ok {
		*dst = Value(time.UnixMilli(ms).UTC())
	}
	return ok
}

// point parses one seven-element point, the i-th of member.
func (s *scanner) point(member string, i int) (ActivityPoint, error) {
	var p ActivityPoint
	fail := func(elem int, err error) error {
		m := fmt.Sprintf("%s[%d]", member, i)
		if elem >= 0 {
			m += fmt.Sprintf("[%d]", elem)
			err = fmt.Errorf("%s: %w", pointElements[elem], err)
		}
		return &DecodeError{Member: m, Index: i, Err: err}
	}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		v, err := s.value()
		if err != nil {
			return p, err
		}
		return p, fail(-1, fmt.Errorf("got %s, want a seven-element array", clip(v)))
	}
	n := 0
	err := s.array(func() error {
		if n >= 7 {
			n++ // counted for the message, not decoded
			return s.skip()
		}
		var err error
		switch n {
		case 0:
			p.Time, err = s.millis()
		case 1:
			p.Players, err = s.nullableNumber()
		case 2:
			p.Current, err = s.flag()
		case 3:
			p.IntervalStart, err = s.nullableMillis()
		case 4:
			p.IntervalEnd, err = s.nullableMillis()
		case 5:
			var avg bool
			avg, err = s.flag()
			if avg {
				p.Aggregation = AggregationAverage
			}
		case 6:
			p.PartialCoverage, err = s.flag()
		}
		if err != nil {
			var ve valueError
			if errors.As(err, &ve) {
				return fail(n, err)
			}
			return err
		}
		n++
		return nil
	})
	if err != nil {
		return p, err
	}
	if n != 7 {
		return p, fail(-1, fmt.Errorf("point has %d elements, want 7", n))
	}
	return p, nil
}

// valueError is a well-formed value of the wrong kind for its element.
type valueError struct{ msg string }

func (e valueError) Error() string { return e.msg }

// wrongValue consumes the value at s.i and describes it.
func (s *scanner) wrongValue(want string) error {
	v, err := s.value()
	if err != nil {
		return err
	}
	return valueError{fmt.Sprintf("got %s, want %s", clip(v), want)}
}

func (s *scanner) isNull() bool {
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

func (s *scanner) isNumberStart() bool {
	return s.i < len(s.b) && (s.b[s.i] == '-' || (s.b[s.i] >= '0' && s.b[s.i] <= '9'))
}

func (s *scanner) nullableNumber() (Nullable[float64], error) {
	s.ws()
	if s.isNull() {
		return Null[float64](), nil
	}
	if f, ok := s.fastNumber(); ok {
		return Value(f), nil
	}
	if !s.isNumberStart() {
		return Nullable[float64]{}, s.wrongValue("a number")
	}
	b, err := s.number()
	if err != nil {
		return Nullable[float64]{}, err
	}
	f, err := parseFloat(b)
	if err != nil {
		return Nullable[float64]{}, err
	}
	return Value(f), nil
}

func (s *scanner) millis() (time.Time, error) {
	s.ws()
	if ms, ok := s.fastInt(); ok {
		return time.UnixMilli(ms).UTC(), nil
	}
	if !s.isNumberStart() {
		return time.Time{}, s.wrongValue("a number")
	}
	b, err := s.number()
	if err != nil {
		return time.Time{}, err
	}
	ms, err := parseMillis(b)
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(ms).UTC(), nil
}

func (s *scanner) nullableMillis() (Nullable[time.Time], error) {
	s.ws()
	if s.isNull() {
		return Null[time.Time](), nil
	}
	t, err := s.millis()
	if err != nil {
		return Nullable[time.Time]{}, err
	}
	return Value(t), nil
}

func (s *scanner) flag() (bool, error) {
	s.ws()
	if s.i < len(s.b) && (s.b[s.i] == '0' || s.b[s.i] == '1') {
		next := s.i + 1
		if next >= len(s.b) || !isNumberByte(s.b[next]) {
			s.i = next
			return s.b[next-1] == '1', nil
		}
	}
	return false, s.wrongValue("0 or 1")
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// fastInt scans and parses, in the same pass, an integer of at most 15
// digits without fraction or exponent, the usual form of a time. It
// consumes nothing and reports false for anything else, which the general
// path then reads.
func (s *scanner) fastInt() (int64, bool) {
	i, neg := s.i, false
	if i < len(s.b) && s.b[i] == '-' {
		i, neg = i+1, true
	}
	start := i
	var n int64
	// Times are 13 digits: take the first 8 in one step.
	if len(s.b)-i >= 8 {
		if v, ok := eightDigits(s.b[i:]); ok {
			n, i = int64(v), i+8
		}
	}
	for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' && i-start < 15 {
		n = n*10 + int64(s.b[i]-'0')
		i++
	}
	if i == start || (s.b[start] == '0' && i-start > 1) || (i < len(s.b) && isNumberByte(s.b[i])) {
		return 0, false
	}
	s.i = i
	if neg {
		n = -n
	}
	return n, true
}

// eightDigits parses the 8 bytes at the start of b when all are digits,
// with a few multiplications on one 64-bit word instead of a loop
// (Lemire, "Fast numeric string parsing in C++", 2022).
func eightDigits(b []byte) (uint64, bool) {
	v := binary.LittleEndian.Uint64(b)
	if (v&0xf0f0f0f0f0f0f0f0)|((v+0x0606060606060606)&0xf0f0f0f0f0f0f0f0)>>4 != 0x3333333333333333 {
		return 0, false
	}
	v -= 0x3030303030303030
	v = v*10 + v>>8
	v = ((v&0x000000ff000000ff)*(100+1000000<<32) + (v>>16&0x000000ff000000ff)*(1+10000<<32)) >> 32
	return v, true
}

// fastNumber is fastInt for numbers with an optional fraction, at most 15
// significant digits in all; see parseFloat for why that is exact.
func (s *scanner) fastNumber() (float64, bool) {
	i, neg := s.i, false
	if i < len(s.b) && s.b[i] == '-' {
		i, neg = i+1, true
	}
	start := i
	var mant uint64
	for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' {
		mant = mant*10 + uint64(s.b[i]-'0')
		i++
	}
	intDigits := i - start
	if intDigits == 0 || (s.b[start] == '0' && intDigits > 1) {
		return 0, false
	}
	frac := 0
	if i < len(s.b) && s.b[i] == '.' {
		i++
		for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' {
			mant = mant*10 + uint64(s.b[i]-'0')
			i++
			frac++
		}
		if frac == 0 {
			return 0, false
		}
	}
	if intDigits+frac > 15 || (i < len(s.b) && isNumberByte(s.b[i])) {
		return 0, false
	}
	s.i = i
	f := float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseFloat parses a JSON number. Numbers of at most 15 significant
// digits with no exponent, which is nearly all of them here, take a fast
// path that is exact: both the digits and the power of ten are exactly
// representable, so one division rounds correctly. Others go through
// strconv.
func parseFloat(b []byte) (float64, error) {
	i, neg := 0, false
	if b[0] == '-' {
		i, neg = 1, true
	}
	var mant uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			if digits++; frac >= 0 {
				frac++
			}
		case c == '.':
			frac = 0
		default:
			digits = 99 // an exponent: the slow path
		}
	}
	if digits > 15 {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.IsInf(f, 0) {
			return 0, valueError{fmt.Sprintf("got %s, want a finite number", clip(b))}
		}
		return f, nil
	}
	f := float64(mant)
	if frac > 0 {
		f /= pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, nil
}

// parseMillis parses whole Unix milliseconds, written with or without a
// fraction or exponent.
func parseMillis(b []byte) (int64, error) {
	if len(b) <= 15 && !bytes.ContainsAny(b, ".eE") {
		// At most 15 characters: below 2^53 whatever they are, so the
		// bound below holds whichever way the number is written.
		n, neg, i := int64(0), b[0] == '-', 0
		if neg {
			i = 1
		}
		for ; i < len(b); i++ {
			n = n*10 + int64(b[i]-'0')
		}
		if neg {
			n = -n
		}
		return n, nil
	}
	f, err := parseFloat(b)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, valueError{fmt.Sprintf("got %s, want whole Unix milliseconds", clip(b))}
	}
	return int64(f), nil
}

// decodeCoverage reads the optional partialCoverage array of timestamps.
func decodeCoverage(raw []byte) ([]time.Time, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '[' {
		return nil, &DecodeError{Member: "partialCoverage", Index: -1, Err: errors.New("want an array of timestamps")}
	}
	// One a comma, but a timestamp takes at least two bytes with its comma.
	out := make([]time.Time, 0, min(bytes.Count(raw, []byte{','})+1, len(raw)/2))
	err := eachElement(raw, func(i int, v []byte) error {
		var t time.Time
		var err error
		if v[0] == '"' {
			t, err = parseISO8601(memberName(v[1 : len(v)-1]))
		} else if v[0] == '-' || (v[0] >= '0' && v[0] <= '9') {
			var ms int64
			if ms, err = parseMillis(v); err == nil {
				t = time.UnixMilli(ms).UTC()
			}
		} else {
			err = fmt.Errorf("got %s, want a timestamp", clip(v))
		}
		if err != nil {
			return &DecodeError{Member: fmt.Sprintf("partialCoverage[%d]", i), Index: i, Err: err}
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
