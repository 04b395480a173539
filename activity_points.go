package gamedata

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// Aggregation says how an activity point was formed.
type Aggregation uint8

const (
	// AggregationSnapshot is a point observed at one moment; its interval
	// bounds may be null.
	AggregationSnapshot Aggregation = 0
	// AggregationAverage is an average over an interval; its player count
	// may be fractional.
	AggregationAverage Aggregation = 1
)

// String returns "snapshot" or "average".
func (a Aggregation) String() string {
	switch a {
	case AggregationSnapshot:
		return "snapshot"
	case AggregationAverage:
		return "average"
	}
	return "Aggregation(" + strconv.Itoa(int(a)) + ")"
}

// ActivityPoint is one point of the activity history, decoded from the
// service's seven-element array.
type ActivityPoint struct {
	// Time is the time of the point (element 0, Unix milliseconds), in UTC.
	Time time.Time
	// Players is the number of players (element 1), fractional when the
	// point is an average. Null means unavailable, never zero. When
	// PartialCoverage is true it is a lower bound, not a complete total.
	Players Nullable[float64]
	// Current is true for the current point (element 2).
	Current bool
	// IntervalStart and IntervalEnd bound the interval the point covers
	// (elements 3 and 4); they may be null for a snapshot.
	IntervalStart, IntervalEnd Nullable[time.Time]
	// Aggregation says whether the point is a snapshot or an average
	// (element 5).
	Aggregation Aggregation
	// PartialCoverage is true when games that were not recorded may be
	// missing from the point's total: its partial-coverage flag (element
	// 6) is 1, or its time is listed in the response's partialCoverage
	// array.
	PartialCoverage bool
}

var pointElements = [7]string{"time", "players", "current flag", "interval start", "interval end", "aggregation flag", "partial-coverage flag"}

// point parses one seven-element point into p, exactly: it says what is
// wrong with a point fastPoints did not take. On failure it returns the
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
