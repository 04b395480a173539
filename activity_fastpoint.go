package gamedata

import "time"

// The usual point is parsed by fastPoint, which reads and converts each
// element in one step and reports only whether it could. Anything it does
// not take is read again by point, the exact parser, which says what is
// wrong. fastPoint earns its place by a benchmark: without it the decoding
// of 100,000 points takes about 40 % longer (BENCHMARKS.md).

// fastPoint parses a point written the usual way, into p: seven elements,
// integers for times and flags, numbers of at most 15 digits. It reports
// false, having consumed some of the input, for anything else.
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
