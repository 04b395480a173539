package gamedata

import (
	"context"
	"net/url"
	"strconv"
	"time"
)

// Range7d is the activity-history range of seven days, a documented value.
const Range7d = "7d"

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

// ActivityHistory is the compact player activity history of the whole
// platform, across every game.
type ActivityHistory struct {
	// Points are the history's points, in the service's order.
	Points []ActivityPoint
	// PartialCoverage lists the times the response's optional
	// partialCoverage array names; the points at those times have
	// PartialCoverage set.
	PartialCoverage []time.Time
	// Fields holds the whole response as the service sent it.
	Fields
}

// ActivityOptions selects an activity history.
type ActivityOptions struct {
	// Range is the time range, such as Range7d; empty leaves it to the
	// service.
	Range string `url:"range,omitempty"`
	// Params carries query parameters the service takes but does not
	// document. It may not repeat range.
	Params url.Values `url:"-"`
}

// ActivityService reads player activity history. Use it through
// Client.Activity.
type ActivityService service

// History reads the compact player activity history of the whole
// platform (GET /api/activity-history): players across every game, not
// one game's. A game's own history is in its analytics report
// (Analytics.Package), and an organization's in Analytics.Organization. A
// point that is not exactly the seven documented elements is a
// *DecodeError naming its index.
func (s *ActivityService) History(ctx context.Context, opts *ActivityOptions) (*ActivityHistory, error) {
	o := valueOf(opts)
	q, err := encodeQuery(o, o.Params)
	if err != nil {
		return nil, err
	}
	var h *ActivityHistory
	err = (*service)(s).get(ctx, cacheModeOf(ctx), q, func(b []byte) (err error) {
		h, err = decodeActivityHistory(b)
		return err
	}, "api", "activity-history")
	if err != nil {
		return nil, err
	}
	return h, nil
}
