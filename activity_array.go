package gamedata

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

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
		var n int
		if out, n = fastPoints(s.Rest(), out); n > 0 {
			s.Advance(n)
		} else {
			out = append(out, ActivityPoint{})
			i := len(out) - 1
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

// The usual points are parsed by fastPoints, which walks the bytes itself
// and reads and converts each element in one step, reporting only how
// far it could. Anything it does not take is read by point, the exact
// parser, which says what is wrong. fastPoints earns its place by a
// benchmark (BENCHMARKS.md).

// fastPoints appends to out the points at the start of b that are
// written the usual way, one after another with a comma between, and
// returns out and the bytes they took: up to the end of the last point
// taken, before the comma or ']' that follows it. A point written
// otherwise stops it; the bytes of out past its length are then
// anything, and out is to be extended with append.
func fastPoints(b []byte, out []ActivityPoint) ([]ActivityPoint, int) {
	taken, next := 0, 0
	var prev knownTime
	for {
		if len(out) == cap(out) {
			out = slices.Grow(out, 1)
		}
		n := fastPoint(b[next:], &out[:len(out)+1][len(out)], &prev)
		if n == 0 {
			return out, taken
		}
		out = out[:len(out)+1]
		taken = next + n
		if taken >= len(b) || b[taken] != ',' {
			return out, taken
		}
		next = taken + 1
	}
}

// fastPoint parses the point at the start of b into p, when it is written
// the usual way: seven elements and no white space, times since 1970 as
// integers of at most 15 digits, 0 or 1 for flags, numbers of at most 15
// digits for players. It returns the point's length, or 0 for any other
// point, of which it may have written some of p. prev is the time of the
// point before, which the interval start usually repeats; it is made this
// point's.
func fastPoint(b []byte, p *ActivityPoint, prev *knownTime) int {
	if len(b) == 0 || b[0] != '[' {
		return 0
	}
	ms, n := jsonscan.Uint(b[1:])
	i := after(b, 1+n, ',')
	if n == 0 || i < 0 {
		return 0
	}
	p.Time = time.UnixMilli(int64(ms)).UTC()
	now := knownTime{b[1 : 1+n], p.Time}
	if i = fastNullable(b, i, &p.Players, jsonscan.Number); i < 0 {
		return 0
	}
	if p.Current, i = fastFlag(b, i, ','); i < 0 {
		return 0
	}
	if i = fastBound(b, i, &p.IntervalStart, prev); i < 0 {
		return 0
	}
	if i = fastBound(b, i, &p.IntervalEnd, &now); i < 0 {
		return 0
	}
	*prev = now
	avg, i := fastFlag(b, i, ',')
	if i < 0 {
		return 0
	}
	p.Aggregation = AggregationSnapshot
	if avg {
		p.Aggregation = AggregationAverage
	}
	p.PartialCoverage, i = fastFlag(b, i, ']')
	return max(i, 0)
}

// after returns the offset after the byte c at b[i], or -1 when c is not
// there.
func after(b []byte, i int, c byte) int {
	if i < len(b) && b[i] == c {
		return i + 1
	}
	return -1
}

// fastNullable reads null, or a value with read, at b[i], and the comma
// after it, into dst; it returns the offset after the comma, or -1.
func fastNullable[T any](b []byte, i int, dst *Nullable[T], read func([]byte) (T, int)) int {
	if len(b)-i >= 4 && string(b[i:i+4]) == "null" {
		*dst = Null[T]()
		return after(b, i+4, ',')
	}
	v, n := read(b[i:])
	if n == 0 {
		return -1
	}
	*dst = Value(v)
	return after(b, i+n, ',')
}

// knownTime is a time of the body, as written and as read.
type knownTime struct {
	text []byte
	t    time.Time
}

// fastBound reads null or whole milliseconds at b[i], and the comma after
// it, into dst; it returns the offset after the comma, or -1. A bound that
// repeats known, as the service writes an average's interval (it starts
// at the time of the point before and ends at the point's own), is known's
// time without reading it again: this takes a seventh of the decoding's
// instructions off (BENCHMARKS.md).
func fastBound(b []byte, i int, dst *Nullable[time.Time], known *knownTime) int {
	if j := i + len(known.text); len(known.text) > 0 && j < len(b) && b[j] == ',' && string(b[i:j]) == string(known.text) {
		*dst = Value(known.t)
		return j + 1
	}
	return fastNullable(b, i, dst, fastMillis)
}

// fastMillis reads times since 1970 as Uint reads them.
func fastMillis(b []byte) (time.Time, int) {
	ms, n := jsonscan.Uint(b)
	return time.UnixMilli(int64(ms)).UTC(), n
}

// fastFlag reads 0 or 1 at b[i] followed by c; it returns the flag and
// the offset after c, or -1.
func fastFlag(b []byte, i int, c byte) (bool, int) {
	if i+1 >= len(b) || b[i]&^1 != '0' || b[i+1] != c {
		return false, -1
	}
	return b[i] == '1', i + 2
}
