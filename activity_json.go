package gamedata

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// MarshalJSON writes the history as the service sent it. A history built
// in Go is written as {"points": [...], "partialCoverage": [...]}, its
// times as Unix milliseconds, partialCoverage left out when nil.
func (h ActivityHistory) MarshalJSON() ([]byte, error) {
	if h.raw != nil {
		return h.raw, nil
	}
	points := h.Points
	if points == nil {
		points = []ActivityPoint{} // a history without points is an empty array
	}
	var coverage []int64
	if h.PartialCoverage != nil {
		coverage = make([]int64, len(h.PartialCoverage))
		for i, t := range h.PartialCoverage {
			coverage[i] = t.UnixMilli()
		}
	}
	return json.Marshal(struct {
		Points          []ActivityPoint `json:"points"`
		PartialCoverage []int64         `json:"partialCoverage,omitzero"`
	}{points, coverage})
}

// UnmarshalJSON decodes a history as Client.Activity.History does. Null
// leaves h as it is.
func (h *ActivityHistory) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, func(b []byte) (ActivityHistory, error) {
		d, err := decodeActivityHistory(b)
		if err != nil {
			return ActivityHistory{}, err
		}
		return *d, nil
	}, h)
}

// MarshalJSON writes the point in the service's form, an array of seven
// elements: times as Unix milliseconds, flags as 0 or 1, null for a
// player count or an interval bound that is null or absent.
func (p ActivityPoint) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	b = strconv.AppendInt(b, p.Time.UnixMilli(), 10)
	b = append(b, ',')
	if players, ok := p.Players.Get(); ok {
		v, err := json.Marshal(players) // refuses NaN and infinities, which JSON cannot hold
		if err != nil {
			return nil, err
		}
		b = append(b, v...)
	} else {
		b = append(b, "null"...)
	}
	b = appendFlag(b, p.Current)
	for _, bound := range []Nullable[time.Time]{p.IntervalStart, p.IntervalEnd} {
		b = append(b, ',')
		if t, ok := bound.Get(); ok {
			b = strconv.AppendInt(b, t.UnixMilli(), 10)
		} else {
			b = append(b, "null"...)
		}
	}
	b = appendFlag(b, p.Aggregation == AggregationAverage)
	b = appendFlag(b, p.PartialCoverage)
	return append(b, ']'), nil
}

// appendFlag appends a comma and the flag v as 0 or 1.
func appendFlag(b []byte, v bool) []byte {
	if v {
		return append(b, ",1"...)
	}
	return append(b, ",0"...)
}

// UnmarshalJSON decodes a point of exactly seven elements, as the
// service sends it. Null leaves p as it is.
func (p *ActivityPoint) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	s := jsonscan.New(b)
	var d ActivityPoint
	elem, err := point(&s, &d)
	if err == nil {
		err = s.End()
	}
	switch {
	case err != nil && elem >= 0:
		return fmt.Errorf("gamedata: activity point: element %d, the %s: %w", elem, pointElements[elem], err)
	case err != nil:
		return fmt.Errorf("gamedata: activity point: %w", err)
	}
	*p = d
	return nil
}
