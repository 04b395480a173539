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
	more, err := s.open('[', ']', "looking for beginning of array")
	for more && err == nil {
		out = append(out, ActivityPoint{})
		i := len(out) - 1
		if start := s.i; !s.fastPoint(&out[i]) {
			s.i, out[i] = start, ActivityPoint{}
			if elem, err := s.point(&out[i]); err != nil {
				return nil, pointError(member, i, elem, err)
			}
		}
		more, err = s.next(']', "after array element")
	}
	if err != nil {
		return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", member, len(out)), Err: err}
	}
	s.depth--
	return out, nil
}

// pointError locates the failure of the i-th point of member: at its
// element elem when that element is of the wrong kind.
func pointError(member string, i, elem int, err error) error {
	at := fmt.Sprintf("%s[%d]", member, i)
	var ve valueError
	if elem >= 0 && errors.As(err, &ve) {
		at += fmt.Sprintf("[%d]", elem)
		err = fmt.Errorf("%s: %w", pointElements[elem], err)
	}
	return &DecodeError{Member: at, Err: err}
}

// point parses one seven-element point into p. On failure it returns the
// index of the element at fault, or -1 when the point as a whole is.
func (s *scanner) point(p *ActivityPoint) (int, error) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '[' {
		v, err := s.value()
		if err != nil {
			return -1, err
		}
		return -1, fmt.Errorf("got %s, want a seven-element array", clip(v))
	}
	more, err := s.open('[', ']', "looking for beginning of array")
	if err != nil {
		return -1, err
	}
	n := 0
	for ; more; n++ {
		if n < len(pointElements) {
			err = s.element(n, p)
		} else {
			err = s.skip() // counted for the message, not decoded
		}
		if err != nil {
			return n, err
		}
		if more, err = s.next(']', "after array element"); err != nil {
			return -1, err
		}
	}
	s.depth-- // the level open took; a failure above ends the whole decode
	if n != len(pointElements) {
		return -1, fmt.Errorf("point has %d elements, want 7", n)
	}
	return -1, nil
}

// element reads the n-th element of a point into p.
func (s *scanner) element(n int, p *ActivityPoint) error {
	s.ws()
	switch n {
	case 0:
		return s.millis(&p.Time)
	case 1:
		return s.nullableNumber(&p.Players)
	case 2:
		return s.flag(&p.Current)
	case 3:
		return s.nullableMillis(&p.IntervalStart)
	case 4:
		return s.nullableMillis(&p.IntervalEnd)
	case 5:
		var avg bool
		err := s.flag(&avg)
		if avg {
			p.Aggregation = AggregationAverage
		}
		return err
	}
	return s.flag(&p.PartialCoverage)
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

func (s *scanner) nullableNumber(dst *Nullable[float64]) error {
	if s.isNull() {
		*dst = Null[float64]()
		return nil
	}
	if f, ok := s.fastNumber(); ok {
		*dst = Value(f)
		return nil
	}
	if !s.isNumberStart() {
		return s.wrongValue("a number")
	}
	b, err := s.number()
	if err != nil {
		return err
	}
	f, err := parseFloat(b)
	if err != nil {
		return err
	}
	*dst = Value(f)
	return nil
}

func (s *scanner) millis(dst *time.Time) error {
	ms, ok := s.fastInt()
	if !ok {
		if !s.isNumberStart() {
			return s.wrongValue("a number")
		}
		b, err := s.number()
		if err != nil {
			return err
		}
		if ms, err = parseMillis(b); err != nil {
			return err
		}
	}
	*dst = time.UnixMilli(ms).UTC()
	return nil
}

func (s *scanner) nullableMillis(dst *Nullable[time.Time]) error {
	if s.isNull() {
		*dst = Null[time.Time]()
		return nil
	}
	var t time.Time
	if err := s.millis(&t); err != nil {
		return err
	}
	*dst = Value(t)
	return nil
}

// flag reads 0 or 1, written as such: 1.0 or 1e0 is not a flag.
func (s *scanner) flag(dst *bool) error {
	if s.i < len(s.b) && (s.b[s.i] == '0' || s.b[s.i] == '1') {
		next := s.i + 1
		if next >= len(s.b) || !isNumberByte(s.b[next]) {
			s.i = next
			*dst = s.b[next-1] == '1'
			return nil
		}
	}
	return s.wrongValue("0 or 1")
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
