package gamedata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
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

// ActivityHistory is the compact player activity history.
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

// History reads the compact player activity history (GET
// /api/activity-history). A point that is not exactly the seven documented
// elements is a *DecodeError naming its index.
func (s *ActivityService) History(ctx context.Context, opts *ActivityOptions) (*ActivityHistory, error) {
	o := ActivityOptions{}
	if opts != nil {
		o = *opts
	}
	q, err := encodeQuery(o, o.Params)
	if err != nil {
		return nil, err
	}
	var h *ActivityHistory
	err = s.client.getJSON(ctx, s.client.endpoint(q, "api", "activity-history"), func(b []byte) (err error) {
		h, err = decodeActivityHistory(b)
		return err
	})
	if err != nil {
		return nil, err
	}
	return h, nil
}

// decodeActivityHistory decodes a response by these rules: the body is an
// object whose points are the member "points" or, failing that, its only
// array of arrays; its optional "partialCoverage" array lists timestamps,
// as Unix milliseconds or ISO 8601 strings.
func decodeActivityHistory(body []byte) (*ActivityHistory, error) {
	env, err := decodeFields(body)
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: fmt.Errorf("activity history: %w", err)}
	}
	h := &ActivityHistory{Fields: env}
	name, err := pointsMember(env)
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: err}
	}
	if h.PartialCoverage, err = decodeCoverage(env.members["partialCoverage"]); err != nil {
		return nil, err
	}
	partial := make(map[int64]bool, len(h.PartialCoverage))
	for _, t := range h.PartialCoverage {
		partial[t.UnixMilli()] = true
	}
	var raws [][]json.RawMessage
	if err := json.Unmarshal(env.members[name], &raws); err != nil {
		return nil, &DecodeError{Member: name, Index: -1, Err: fmt.Errorf("want an array of seven-element arrays: %w", err)}
	}
	h.Points = make([]ActivityPoint, len(raws))
	for i, raw := range raws {
		p, elem, err := decodePoint(raw)
		if err != nil {
			member := fmt.Sprintf("%s[%d]", name, i)
			if elem >= 0 {
				member += fmt.Sprintf("[%d]", elem)
			}
			return nil, &DecodeError{Member: member, Index: i, Err: err}
		}
		p.PartialCoverage = p.PartialCoverage || partial[p.Time.UnixMilli()]
		h.Points[i] = p
	}
	return h, nil
}

func pointsMember(env Fields) (string, error) {
	if _, ok := env.members["points"]; ok {
		return "points", nil
	}
	var arrays []string
	for name, v := range env.members {
		if name != "partialCoverage" && isArrayOfArrays(v) {
			arrays = append(arrays, name)
		}
	}
	if len(arrays) == 1 {
		return arrays[0], nil
	}
	slices.Sort(arrays)
	return "", fmt.Errorf("activity history has no points member and %d arrays of arrays %v", len(arrays), arrays)
}

func isArrayOfArrays(v json.RawMessage) bool {
	var first []json.RawMessage
	return len(v) > 0 && v[0] == '[' && json.Unmarshal(v, &first) == nil && len(first) > 0 && len(first[0]) > 0 && first[0][0] == '['
}

var pointElements = [7]string{"time", "players", "current flag", "interval start", "interval end", "aggregation flag", "partial-coverage flag"}

// decodePoint decodes one seven-element point. On error it returns the
// index of the element at fault, or -1 when the point as a whole is.
func decodePoint(raw []json.RawMessage) (ActivityPoint, int, error) {
	if len(raw) != 7 {
		return ActivityPoint{}, -1, fmt.Errorf("point has %d elements, want 7", len(raw))
	}
	var p ActivityPoint
	t, err := unixMillis(raw[0])
	if err != nil {
		return p, 0, fmt.Errorf("%s: %w", pointElements[0], err)
	}
	p.Time = t
	if string(raw[1]) == "null" {
		p.Players = Null[float64]()
	} else if n, err := number(raw[1]); err != nil {
		return p, 1, fmt.Errorf("%s: %w", pointElements[1], err)
	} else {
		p.Players = Value(n)
	}
	flags := [3]int{2, 5, 6}
	var set [3]bool
	for j, i := range flags {
		if set[j], err = flag(raw[i]); err != nil {
			return p, i, fmt.Errorf("%s: %w", pointElements[i], err)
		}
	}
	p.Current, p.PartialCoverage = set[0], set[2]
	if set[1] {
		p.Aggregation = AggregationAverage
	}
	for j, dst := range []*Nullable[time.Time]{&p.IntervalStart, &p.IntervalEnd} {
		i := 3 + j
		if string(raw[i]) == "null" {
			*dst = Null[time.Time]()
			continue
		}
		t, err := unixMillis(raw[i])
		if err != nil {
			return p, i, fmt.Errorf("%s: %w", pointElements[i], err)
		}
		*dst = Value(t)
	}
	return p, -1, nil
}

func number(v json.RawMessage) (float64, error) {
	if !isJSONNumber(v) {
		return 0, fmt.Errorf("got %s, want a number", clip(v))
	}
	n, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(n, 0) {
		return 0, fmt.Errorf("got %s, want a finite number", clip(v))
	}
	return n, nil
}

// unixMillis reads a time in Unix milliseconds: an integral number, written
// with or without a fraction or exponent.
func unixMillis(v json.RawMessage) (time.Time, error) {
	n, err := number(v)
	if err != nil {
		return time.Time{}, err
	}
	if n != math.Trunc(n) || math.Abs(n) > 1<<53 {
		return time.Time{}, fmt.Errorf("got %s, want whole Unix milliseconds", clip(v))
	}
	return time.UnixMilli(int64(n)).UTC(), nil
}

func flag(v json.RawMessage) (bool, error) {
	switch string(v) {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("got %s, want 0 or 1", clip(v))
}

// decodeCoverage reads the optional partialCoverage array of timestamps.
func decodeCoverage(raw json.RawMessage) ([]time.Time, error) {
	if raw == nil || string(raw) == "null" {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, &DecodeError{Member: "partialCoverage", Index: -1, Err: errors.New("want an array of timestamps")}
	}
	out := make([]time.Time, len(raws))
	for i, r := range raws {
		var err error
		if len(r) > 0 && r[0] == '"' {
			var s string
			if err = json.Unmarshal(r, &s); err == nil {
				out[i], err = parseISO8601(s)
			}
		} else {
			out[i], err = unixMillis(r)
		}
		if err != nil {
			return nil, &DecodeError{Member: fmt.Sprintf("partialCoverage[%d]", i), Index: i, Err: err}
		}
	}
	return out, nil
}
