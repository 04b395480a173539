package collect

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// entryOf is a directory entry as the store keeps it: its numeric
// members (the service documents none of them, so every member that is
// a number, a boolean or null is one), whether it says its metrics have
// partial coverage, and what says its record changed.
func entryOf(e gamedata.DashboardEntry) store.Entry {
	out := store.Entry{
		Key:       store.Key{Kind: e.Kind, Ident: e.Ident, ID: e.ID},
		Title:     text(e.Fields, "title", "name"),
		Players:   metric(e.Fields, "players"),
		Raw:       e.JSON(),
		Values:    map[string]*float64{},
		ChangeKey: changeKey(e.Fields),
	}
	for _, name := range e.Names() {
		if name == "partialCoverage" {
			out.Partial = flag(e.Fields, name) == 1
			continue
		}
		m := e.Metric(name)
		switch v, ok := m.Get(); {
		case ok:
			out.Values[name] = &v
		case m.IsNull():
			out.Values[name] = nil
		default:
			if b := flag(e.Fields, name); b >= 0 {
				f := float64(b)
				out.Values[name] = &f
			}
		}
	}
	return out
}

// flag is a boolean member as 1 or 0, or -1 when it is not a boolean.
func flag(f gamedata.Fields, name string) int {
	raw, _ := f.Raw(name)
	switch string(raw) {
	case "true":
		return 1
	case "false":
		return 0
	}
	return -1
}

// changeKey says when an entry's record changed: its updatedAt as sent,
// or, for an entry without one, a digest of the entry's own bytes.
func changeKey(f gamedata.Fields) string {
	if raw, ok := f.Raw("updatedAt"); ok && string(raw) != "null" {
		return "updatedAt " + string(raw)
	}
	sum := sha256.Sum256(f.JSON())
	return "sha256 " + hex.EncodeToString(sum[:])
}

// packageDetail is a package record fetched for d, kept under d's key
// (the directory's identity for it).
func packageDetail(d store.Due, p *gamedata.Package) store.Detail {
	return store.Detail{Key: d.Key, Title: text(p.Fields, "title"), Players: metric(p.Fields, "players"), Raw: p.JSON(), ChangeKey: d.ChangeKey}
}

// serverDetail is a server record fetched for d.
func serverDetail(d store.Due, s *gamedata.Server) store.Detail {
	return store.Detail{Key: d.Key, Title: text(s.Fields, "name"), Players: metric(s.Fields, "players"),
		MaxPlayers: metric(s.Fields, "maxPlayers"), Raw: s.JSON(), ChangeKey: d.ChangeKey}
}

// historyRows are a report's history entries.
func historyRows(r *gamedata.PackageReport) []store.HistoryRow {
	out := make([]store.HistoryRow, len(r.History))
	for i, h := range r.History {
		out[i] = store.HistoryRow{CapturedAt: h.CapturedAt, Players: metric(h.Fields, "players"), Partial: h.PartialCoverage, Raw: h.JSON()}
	}
	return out
}

// points are an activity history's points; each one's raw is its seven
// elements as decoded, its partial-coverage flag set when the response's
// partialCoverage array names it.
func points(h *gamedata.ActivityHistory) []store.Point {
	out := make([]store.Point, len(h.Points))
	for i, p := range h.Points {
		sp := store.Point{Time: p.Time, Average: p.Aggregation == gamedata.AggregationAverage, Partial: p.PartialCoverage, Current: p.Current}
		if v, ok := p.Players.Get(); ok {
			sp.Players = &v
		}
		if t, ok := p.IntervalStart.Get(); ok {
			sp.IntervalStart = &t
		}
		if t, ok := p.IntervalEnd.Get(); ok {
			sp.IntervalEnd = &t
		}
		sp.Raw = pointJSON(sp)
		out[i] = sp
	}
	return out
}

func pointJSON(p store.Point) []byte {
	b := []byte{'['}
	b = strconv.AppendInt(b, p.Time.UnixMilli(), 10)
	b = append(b, ',')
	if p.Players != nil {
		b = strconv.AppendFloat(b, *p.Players, 'g', -1, 64)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, bit(p.Current), 10)
	for _, t := range []*time.Time{p.IntervalStart, p.IntervalEnd} {
		b = append(b, ',')
		if t != nil {
			b = strconv.AppendInt(b, t.UnixMilli(), 10)
		} else {
			b = append(b, "null"...)
		}
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, bit(p.Average), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, bit(p.Partial), 10)
	return append(b, ']')
}

func bit(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// text is the first of names that is a string member, as sent, or nil:
// the database is not a terminal, so the text is kept whole.
func text(f gamedata.Fields, names ...string) *string {
	for _, n := range names {
		if t, ok := f.Text(n); ok {
			s := t.Unsanitized()
			return &s
		}
	}
	return nil
}

// metric is a numeric member, or nil: unavailable is never 0.
func metric(f gamedata.Fields, name string) *float64 {
	if v, ok := f.Metric(name).Get(); ok {
		return &v
	}
	return nil
}
