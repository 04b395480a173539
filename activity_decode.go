package gamedata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/internal/iso8601"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

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

// decodeActivityHistory decodes a response by these rules: the body is an
// object whose points are the member "points" or, failing that, its only
// array of arrays; its optional "partialCoverage" array lists timestamps,
// as Unix milliseconds or ISO 8601 strings.
//
// It is the SDK's hot path (a long range is 10^5 points), so it makes one
// pass over the bytes and parses the points straight into a presized
// slice, with no allocation per point.
func decodeActivityHistory(body []byte) (*ActivityHistory, error) {
	body = trimJSON(body)
	d := historyDecoder{Scanner: jsonscan.New(body), h: &ActivityHistory{}, members: make(map[string]json.RawMessage, 4)}
	err := d.Object(d.member)
	if err == nil {
		err = d.End()
	}
	if err != nil {
		var de *DecodeError
		if errors.As(err, &de) {
			return nil, de
		}
		return nil, &DecodeError{Err: fmt.Errorf("activity history: %w", objectError(body, err))}
	}
	if !d.found {
		if err := d.onlyArrayOfArrays(); err != nil {
			return nil, err
		}
	}
	if coverage, ok := d.members["partialCoverage"]; ok {
		if d.h.PartialCoverage, err = decodeCoverage(coverage); err != nil {
			return nil, err
		}
		markPartial(d.h.Points, d.h.PartialCoverage)
	}
	d.h.Fields = newFields(body, d.Canonical(), d.members)
	return d.h, nil
}

// historyDecoder is the state of one pass over an activity history.
type historyDecoder struct {
	jsonscan.Scanner
	h     *ActivityHistory
	found bool // a member named points was read
	// members are every member, the last of a name sent twice, as
	// encoding/json and Fields read them: for the partialCoverage array,
	// the points when no member is named so, and the index of the
	// history's Fields, which this pass spares a pass of its own.
	members map[string]json.RawMessage
}

// member reads the value of the member name.
func (d *historyDecoder) member(name []byte) error {
	d.WS()
	switch {
	case jsonscan.NameIs(name, "points"):
		if d.found {
			return &DecodeError{Member: "points", Err: errors.New("points member appears twice")}
		}
		d.found = true
		rest, start := d.Rest(), d.Offset()
		var err error
		if d.h.Points, err = points(&d.Scanner, "points", pointsHint(rest)); err != nil {
			return err
		}
		d.members["points"] = rest[:d.Offset()-start]
		return nil
	}
	v, err := d.Value()
	key := "partialCoverage" // the usual member: its name costs no allocation
	if !jsonscan.NameIs(name, key) {
		key = jsonscan.Unquote(name)
	}
	d.members[key] = v
	return err
}

// onlyArrayOfArrays reads the points from the response's only array of
// arrays, when it has no member named points.
func (d *historyDecoder) onlyArrayOfArrays() error {
	var names []string
	for name, v := range d.members {
		if name != "partialCoverage" && isArrayOfArrays(v) {
			names = append(names, name)
		}
	}
	if len(names) != 1 {
		slices.Sort(names)
		return &DecodeError{Err: fmt.Errorf("activity history has no points member and %d arrays of arrays [%s]", len(names), quotedNames(names))}
	}
	v := d.members[names[0]]
	sub := jsonscan.New(v)
	var err error
	// The service chose the name: errors quote it.
	d.h.Points, err = points(&sub, strconv.Quote(names[0]), pointsHint(v))
	return err
}

// pointsHint estimates how many points b holds, to presize the result: one
// a '[' (less the outer one), but never more than the bytes allow, since a
// point takes at least 15 ("[0,0,0,0,0,0,0]") and a hostile body can hold
// a '[' in every byte.
func pointsHint(b []byte) int {
	return min(bytes.Count(b, []byte{'['})-1, len(b)/15+1)
}

func isArrayOfArrays(v []byte) bool {
	return v[0] == '[' && bytes.HasPrefix(bytes.TrimLeft(v[1:], " \t\r\n"), []byte{'['})
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
	err := jsonscan.Elements(raw, func(i int, v []byte) error {
		t, err := iso8601.FromJSON(v)
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
