package gamedata

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// RangeSummary summarizes an analytics report over one range of time,
// such as "7d".
type RangeSummary struct {
	// Range names the range, such as "24h" or "7d".
	Range string
	// PartialCoverage is true when the summary's totals are sums over the
	// games that were recorded, with others missing: its metrics are then
	// lower bounds, never complete totals.
	PartialCoverage bool
	// Fields holds every member of the summary, its metrics among them:
	// read them with Fields.Metric, where null means unavailable, never
	// zero.
	Fields
}

// Summaries are a report's range summaries, in the order the service sent
// them.
type Summaries []RangeSummary

// Range returns the summary of the range named name, such as "7d", and
// whether the report has one.
func (s Summaries) Range(name string) (RangeSummary, bool) {
	i := slices.IndexFunc(s, func(r RangeSummary) bool { return r.Range == name })
	if i < 0 {
		return RangeSummary{}, false
	}
	return s[i], true
}

// decodeSummaries finds and decodes a report's range summaries. The
// service documents only that they carry a boolean partialCoverage, so the
// rule is: the member "summary" or, failing that, "summaries" (with
// neither, or null, the report has none), holding either an object whose
// members are the summaries keyed by range name, or an array of objects
// that each name their range in a string member "range". Any other shape
// is a *DecodeError naming the member, never a guess.
func decodeSummaries(report map[string]json.RawMessage) (Summaries, error) {
	name := "summary"
	raw, ok := report[name]
	if !ok {
		name = "summaries"
		if raw, ok = report[name]; !ok {
			return nil, nil
		}
	}
	switch raw[0] {
	case '{':
		return summariesByRange(name, raw)
	case '[':
		return decodeArray(raw, name, func(raw []byte) (RangeSummary, error) { return decodeSummary("", raw) })
	case 'n':
		return nil, nil
	}
	return nil, &DecodeError{Member: name, Err: fmt.Errorf("got %s, want an object keyed by range or an array of summaries", jsonscan.Clip(raw))}
}

// summariesByRange decodes an object whose members are summaries keyed by
// range name, in the order sent; a range sent twice means its last value.
func summariesByRange(name string, raw []byte) (Summaries, error) {
	var out Summaries
	sc := jsonscan.New(raw) // a member of a decoded report: a valid object
	err := sc.Object(func(key []byte) error {
		v, err := sc.Value()
		if err != nil {
			return err
		}
		rng := jsonscan.Unquote(key)
		s, err := decodeSummary(rng, v)
		if err != nil {
			// The service chose the range's name: errors quote it.
			return &DecodeError{Member: name + "[" + strconv.Quote(rng) + "]", Err: err}
		}
		out = slices.DeleteFunc(out, func(r RangeSummary) bool { return r.Range == rng })
		out = append(out, s)
		return nil
	})
	return out, err
}

// decodeSummary decodes one summary; rng is its key, or "" when the
// summary names its range itself.
func decodeSummary(rng string, raw []byte) (RangeSummary, error) {
	f, members, err := decodeFields(raw)
	if err != nil {
		return RangeSummary{}, err
	}
	s := RangeSummary{Range: rng, Fields: f}
	if rng == "" {
		text, ok := f.Text("range")
		if !ok || text.Unsanitized() == "" {
			return RangeSummary{}, errors.New("summary does not name its range in a string member range")
		}
		s.Range = text.Unsanitized()
	}
	if s.PartialCoverage, err = partialCoverage(members); err != nil {
		return RangeSummary{}, err
	}
	return s, nil
}
