package gamedata

import (
	"errors"
	"fmt"
	"time"
)

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
		return nil, &DecodeError{Member: member, Err: fmt.Errorf("got %s, want an array of seven-element arrays", clip(v))}
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
			if err := s.point(member, len(out)-1, p); err != nil {
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
		return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", member, len(out)), Err: err}
	}
	return out, nil
}

// fastPoint parses a point written the usual way, into p: seven elements,
// integers for times and flags, numbers of at most 15 digits. It reports
// false, having consumed some of the input, for anything else; point then
// reads it again and says exactly what is wrong.
func (s *scanner) fastPoint(p *ActivityPoint) bool {
	if !s.consume('[') {
		return false
	}
	s.ws()
	ms, ok := s.fastInt()
	if !ok || !s.comma() || !s.fastPlayers(&p.Players) || !s.comma() || !s.fastFlag(&p.Current) || !s.comma() {
		return false
	}
	p.Time = time.UnixMilli(ms).UTC()
	return s.fastTail(p)
}

// fastTail is fastPoint from the interval start on.
func (s *scanner) fastTail(p *ActivityPoint) bool {
	var avg bool
	if !s.fastNullableMillis(&p.IntervalStart) || !s.comma() ||
		!s.fastNullableMillis(&p.IntervalEnd) || !s.comma() ||
		!s.fastFlag(&avg) || !s.comma() || !s.fastFlag(&p.PartialCoverage) {
		return false
	}
	if avg {
		p.Aggregation = AggregationAverage
	}
	return s.consume(']')
}

func (s *scanner) fastPlayers(dst *Nullable[float64]) bool {
	if s.isNull() {
		*dst = Null[float64]()
		return true
	}
	f, ok := s.fastNumber()
	if ok {
		*dst = Value(f)
	}
	return ok
}

// consume consumes c after optional white space, and reports whether it
// was there.
func (s *scanner) consume(c byte) bool {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != c {
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

// element reads the n-th element of a point into p.
func (s *scanner) element(n int, p *ActivityPoint) (err error) {
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
		if avg, err = s.flag(); avg {
			p.Aggregation = AggregationAverage
		}
	case 6:
		p.PartialCoverage, err = s.flag()
	}
	return err
}

// point parses one seven-element point, the i-th of member, into p.
func (s *scanner) point(member string, i int, p *ActivityPoint) error {
	fail := func(elem int, err error) error {
		m := fmt.Sprintf("%s[%d]", member, i)
		if elem >= 0 {
			m += fmt.Sprintf("[%d]", elem)
			err = fmt.Errorf("%s: %w", pointElements[elem], err)
		}
		return &DecodeError{Member: m, Err: err}
	}
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		v, err := s.value()
		if err != nil {
			return err
		}
		return fail(-1, fmt.Errorf("got %s, want a seven-element array", clip(v)))
	}
	n := 0
	err := s.array(func() error {
		if n >= len(pointElements) {
			n++ // counted for the message, not decoded
			return s.skip()
		}
		if err := s.element(n, p); err != nil {
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
		return err
	}
	if n != len(pointElements) {
		return fail(-1, fmt.Errorf("point has %d elements, want 7", n))
	}
	return nil
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
