package gamedatatest

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

const day = 24 * time.Hour

// historyRange is one accepted value of the activity-history range
// parameter: the span it covers and the step between points.
type historyRange struct {
	name       string
	span, step time.Duration
}

var historyRanges = []historyRange{
	{"24h", day, time.Minute},
	{"7d", 7 * day, 5 * time.Minute},
	{"30d", 30 * day, 15 * time.Minute},
	{"90d", 90 * day, 30 * time.Minute},
	{"1y", 365 * day, 30 * time.Minute},
	{"all", 4 * 365 * day, time.Hour},
}

const defaultRange = "7d"

func lookupRange(name string) historyRange {
	for _, h := range historyRanges {
		if h.name == name {
			return h
		}
	}
	return lookupRange(defaultRange)
}

// activity writes the activity-history body for the named range (unknown
// names are normalized to 7d). Points run oldest first and end at the
// catalogue's "now", the only point flagged current. Points younger than a
// day are snapshots with null interval bounds; older ones are averages over
// [t, t+step). Averages in the oldest 40% of the range have partial
// coverage, and so has the point right after each run of null players. The
// partialCoverage array lists every partial point except the oldest, plus
// the (non-partial) point right before each null run.
func (s *snapshot) activity(name string) []byte {
	h := lookupRange(name)
	n := int(h.span / h.step)
	step := h.step
	if s.historyPoints > 0 {
		n = s.historyPoints
		step = max(h.span/time.Duration(n), time.Millisecond)
	}
	r := rand.New(rand.NewPCG(hash64(s.seed, "activity", h.name), streamHistory))

	null := make([]bool, n)
	partial := make([]bool, n)
	listed := make([]bool, n)
	// Two runs of null players at fixed places, plus sporadic single nulls.
	for _, run := range [][2]int{{n * 3 / 10, 3}, {n * 8 / 10, 5}} {
		start, end := run[0], run[0]+run[1] // the run is [start, end)
		if start < 1 || end >= n-1 {
			continue
		}
		for i := start; i < end; i++ {
			null[i] = true
		}
		partial[end] = true
		listed[start-1] = true
	}
	for i := 1; i < n-1; i++ {
		if r.IntN(500) == 0 && !partial[i] && !listed[i] {
			null[i] = true
		}
	}
	snapshotFrom := n - 1 - int(day/step) // points after this index are snapshots
	if h.span <= day {
		snapshotFrom = -1
	}
	snapshotFrom = min(snapshotFrom, n-2) // the current point is a snapshot
	for i := 0; i <= snapshotFrom && i < n*4/10; i++ {
		partial[i] = true
	}
	first := true
	for i := range n {
		if partial[i] {
			listed[i] = !first
			first = false
		}
	}

	var b bytes.Buffer
	b.Grow(n * 64)
	b.WriteString(`{"range":`)
	b.WriteString(strconv.Quote(h.name))
	b.WriteString(`,"points":[`)
	var coverage []int64
	end := s.now
	base := 4000 + float64(hash64(s.seed, "base")%3000)
	for i := range n {
		t := end.Add(-time.Duration(n-1-i) * step)
		ms := t.UnixMilli()
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		b.WriteString(strconv.FormatInt(ms, 10))
		b.WriteByte(',')
		aggregated := i <= snapshotFrom
		v := players(base, t, r)
		switch {
		case null[i]:
			b.WriteString("null")
		case aggregated:
			v = round(v, 3)
			if v == math.Trunc(v) {
				v += 0.25
			}
			b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
		default:
			b.WriteString(strconv.FormatFloat(math.Round(v), 'f', -1, 64))
		}
		if i == n-1 {
			b.WriteString(",1,")
		} else {
			b.WriteString(",0,")
		}
		if aggregated {
			b.WriteString(strconv.FormatInt(ms, 10))
			b.WriteByte(',')
			b.WriteString(strconv.FormatInt(t.Add(step).UnixMilli(), 10))
			b.WriteString(",1,")
		} else {
			b.WriteString("null,null,0,")
		}
		if partial[i] {
			b.WriteString("1]")
		} else {
			b.WriteString("0]")
		}
		if listed[i] {
			coverage = append(coverage, ms)
		}
	}
	b.WriteString(`],"partialCoverage":[`)
	for i, ms := range coverage {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(ms, 10))
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// players is the platform-wide player count at t: a daily and a weekly wave
// over slow growth, with noise.
func players(base float64, t time.Time, r *rand.Rand) float64 {
	hours := float64(t.Unix()) / 3600
	age := referenceTime.Sub(t).Hours() / 24 / 365
	v := base * (1 + 0.3*math.Sin(2*math.Pi*(hours-6)/24) + 0.08*math.Sin(2*math.Pi*hours/168))
	v *= 1 / (1 + 0.25*age)
	v += r.NormFloat64() * base * 0.02
	return math.Max(v, 0)
}

// capturedAtForms are the ISO 8601 spellings history entries cycle through:
// a zone (Z, or a UTC offset) and a number of fractional-second digits.
var capturedAtForms = []struct {
	zone   string
	digits int
}{
	{"Z", 0}, {"+00:00", 3}, {"+02:00", 6}, {"-05:30", 9},
	{"Z", 3}, {"+02:00", 0}, {"-05:30", 3}, {"+00:00", 9},
	{"Z", 9}, {"Z", 6}, {"-05:30", 0}, {"+00:00", 6},
}

// capturedAt spells t in form k. t's fraction must fit the form's digits.
func capturedAt(t time.Time, k int) string {
	f := capturedAtForms[k%len(capturedAtForms)]
	offset := 0
	switch f.zone {
	case "+02:00":
		offset = 2 * 3600
	case "-05:30":
		offset = -(5*3600 + 30*60)
	}
	lt := t.In(time.FixedZone("", offset))
	s := lt.Format("2006-01-02T15:04:05")
	if f.digits > 0 {
		s += "." + strconv.Itoa(1_000_000_000 + lt.Nanosecond())[1:1+f.digits]
	}
	return s + f.zone
}

// fraction draws a nanosecond fraction that form k spells exactly.
func fraction(r *rand.Rand, k int) time.Duration {
	digits := capturedAtForms[k%len(capturedAtForms)].digits
	if digits == 0 {
		return 0
	}
	unit := int64(math.Pow10(9 - digits))
	return time.Duration((1 + r.Int64N(int64(math.Pow10(digits))-1)) * unit)
}

// historyDays is the length of an analytics history, one entry a day.
const historyDays = 90

// report builds the history and summary members of an analytics report for
// the entity named by parts. scale sets the typical player count.
func (s *snapshot) report(scale float64, parts ...string) ([]any, map[string]any) {
	r := rand.New(rand.NewPCG(hash64(s.seed, parts...), streamHistory))
	type entry struct {
		t               time.Time
		players, peak   metric
		partialCoverage bool
	}
	entries := make([]entry, historyDays)
	history := make([]any, historyDays)
	for i := range entries {
		age := historyDays - 1 - i
		t := s.now.Add(-time.Duration(age)*day - time.Duration(r.IntN(4*3600))*time.Second)
		t = t.Add(fraction(r, i))
		e := entry{t: t, partialCoverage: age >= 60 || r.IntN(25) == 0}
		avg := scale * (0.6 + 0.8*r.Float64())
		e.players = known(round(avg, 2+r.IntN(2)))
		if e.players.v == math.Trunc(e.players.v) {
			e.players.v += 0.5
		}
		e.peak = known(math.Ceil(avg * (1.2 + r.Float64())))
		if i == 10 || i == historyDays-3 || r.IntN(14) == 0 {
			e.players = metric{}
		}
		if i == 20 || r.IntN(5) == 0 {
			e.peak = metric{}
		}
		entries[i] = e
		history[i] = map[string]any{
			"capturedAt":      capturedAt(t, i),
			"players":         e.players.value(),
			"playersPeak":     e.peak.value(),
			"partialCoverage": e.partialCoverage,
		}
	}
	summary := map[string]any{}
	for _, name := range []string{"24h", "7d", "30d", "90d"} {
		from := s.now.Add(-lookupRange(name).span)
		var sum, n float64
		peak, partial := metric{}, false
		for _, e := range entries {
			if e.t.Before(from) {
				continue
			}
			partial = partial || e.partialCoverage
			if e.players.ok {
				sum, n = sum+e.players.v, n+1
			}
			if e.peak.ok && (!peak.ok || e.peak.v > peak.v) {
				peak = e.peak
			}
		}
		average := metric{}
		if n > 0 {
			average = known(round(sum/n, 3))
		}
		summary[name] = map[string]any{
			"average":         average.value(),
			"peak":            peak.value(),
			"partialCoverage": partial,
		}
	}
	return history, summary
}

func (s *snapshot) packageReport(p *pkg) map[string]any {
	scale := 50.0
	if p.peak.ok {
		scale = math.Max(p.peak.v/2, 1)
	}
	history, summary := s.report(scale, "package", p.kind, p.ident)
	return map[string]any{
		"kind":         p.kind,
		"ident":        p.ident,
		"title":        p.title,
		"organization": nullString(p.org),
		"history":      history,
		"summary":      summary,
	}
}

func (s *snapshot) orgReport(o *org) map[string]any {
	history, summary := s.report(100+50*float64(len(o.packages)), "organization", o.ident)
	return map[string]any{
		"ident":    o.ident,
		"name":     o.name,
		"packages": len(o.packages),
		"history":  history,
		"summary":  summary,
	}
}
