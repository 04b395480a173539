package gamedata

import (
	"errors"
	"fmt"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

var pointElements = [7]string{"time", "players", "current flag", "interval start", "interval end", "aggregation flag", "partial-coverage flag"}

// points parses an array of seven-element points; hint presizes the
// result.
func points(s *jsonscan.Scanner, member string, hint int) ([]ActivityPoint, error) {
	if !s.Is('[') {
		v, err := s.Value()
		if err != nil {
			return nil, err
		}
		return nil, &DecodeError{Member: member, Err: fmt.Errorf("got %s, want an array of seven-element arrays", jsonscan.Clip(v))}
	}
	out := make([]ActivityPoint, 0, max(hint, 0))
	more, err := s.Open('[')
	for more && err == nil {
		out = append(out, ActivityPoint{})
		i := len(out) - 1
		if start := s.Offset(); !fastPoint(s, &out[i]) {
			s.Rewind(start)
			out[i] = ActivityPoint{}
			if elem, err := point(s, &out[i]); err != nil {
				return nil, pointError(member, i, elem, err)
			}
		}
		more, err = s.Next(']')
	}
	if err != nil {
		return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", member, len(out)), Err: err}
	}
	return out, nil
}

// pointError locates the failure of the i-th point of member: at its
// element elem when that element is of the wrong kind.
func pointError(member string, i, elem int, err error) error {
	at := fmt.Sprintf("%s[%d]", member, i)
	var ve jsonscan.ValueError
	if elem >= 0 && errors.As(err, &ve) {
		at += fmt.Sprintf("[%d]", elem)
		err = fmt.Errorf("%s: %w", pointElements[elem], err)
	}
	return &DecodeError{Member: at, Err: err}
}

// point parses one seven-element point into p, exactly: it says what is
// wrong with a point fastPoint did not take. On failure it returns the
// index of the element at fault, or -1 when the point as a whole is.
func point(s *jsonscan.Scanner, p *ActivityPoint) (int, error) {
	if !s.Is('[') {
		v, err := s.Value()
		if err != nil {
			return -1, err
		}
		return -1, fmt.Errorf("got %s, want a seven-element array", jsonscan.Clip(v))
	}
	more, err := s.Open('[')
	if err != nil {
		return -1, err
	}
	n := 0
	for ; more; n++ {
		if n < len(pointElements) {
			err = element(s, n, p)
		} else {
			err = s.Skip() // counted for the message, not decoded
		}
		if err != nil {
			return n, err
		}
		if more, err = s.Next(']'); err != nil {
			return -1, err
		}
	}
	if n != len(pointElements) {
		return -1, fmt.Errorf("point has %d elements, want 7", n)
	}
	return -1, nil
}

// element reads the n-th element of a point into p.
func element(s *jsonscan.Scanner, n int, p *ActivityPoint) (err error) {
	s.WS()
	switch n {
	case 0:
		p.Time, err = millis(s)
	case 1:
		p.Players, err = nullable(s, s.Float)
	case 2:
		p.Current, err = s.Flag()
	case 3:
		p.IntervalStart, err = nullable(s, func() (time.Time, error) { return millis(s) })
	case 4:
		p.IntervalEnd, err = nullable(s, func() (time.Time, error) { return millis(s) })
	case 5:
		var avg bool
		if avg, err = s.Flag(); avg {
			p.Aggregation = AggregationAverage
		}
	default:
		p.PartialCoverage, err = s.Flag()
	}
	return err
}

func millis(s *jsonscan.Scanner) (time.Time, error) {
	ms, err := s.Millis()
	return time.UnixMilli(ms).UTC(), err
}

// nullable reads null, or a value with read.
func nullable[T any](s *jsonscan.Scanner, read func() (T, error)) (Nullable[T], error) {
	if s.Null() {
		return Null[T](), nil
	}
	v, err := read()
	if err != nil {
		return Nullable[T]{}, err
	}
	return Value(v), nil
}
