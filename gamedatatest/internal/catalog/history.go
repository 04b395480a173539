package catalog

import (
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

// point is one activity point before it is written.
type point struct {
	ms, endMS  int64 // endMS is the interval end of an average
	players    metric
	aggregated bool // an average over [ms, endMS); otherwise a snapshot
	partial    bool
	listed     bool // in the partialCoverage array
}

// Activity is the activity-history body for the named range (unknown
// names are normalized to 7d): the points of the catalogue's origin (see
// originPoints), then one point a step for the time Advance has added,
// the window keeping its length. Only the newest point is current.
func (s *Snapshot) Activity(name string) []byte {
	h := lookupRange(name)
	pts, step := s.originPoints(h)
	added := s.addedPoints(h, step)
	pts = append(pts[min(len(added), len(pts)):], added[max(len(added)-len(pts), 0):]...)
	return activityJSON{Range: h.name, Points: pts}.encode()
}

// originPoints are the points of the range as of the catalogue's origin
// (referenceTime), ending there, and the step between them. Points younger
// than a day are snapshots with null interval bounds; older ones are
// averages over [t, t+step). Averages in the oldest 40% of the range have
// partial coverage, and so has the point right after each run of null
// players; their players are lower bounds (pointCoverage). The
// partialCoverage array lists every partial point except the oldest, plus
// the (non-partial) point right before each null run. The last point, the
// current one, is the platform's players (platformPlayers), the same in
// every range.
func (s *Snapshot) originPoints(h historyRange) ([]point, time.Duration) {
	n := int(h.span / h.step)
	step := h.step
	if s.historyPoints > 0 {
		n = s.historyPoints
		step = max(h.span/time.Duration(n), time.Millisecond)
	}
	r := rand.New(rand.NewPCG(hash64(s.seed, "activity", h.name), streamHistory))
	pts := make([]point, n)
	nullRuns(r, pts)
	snapshotFrom := n - 1 - int(day/step) // points after this index are snapshots
	if h.span <= day {
		snapshotFrom = -1
	}
	snapshotFrom = min(snapshotFrom, n-2) // the current point is a snapshot
	oldest := min(snapshotFrom+1, n*4/10) // the partial stretch is [0, oldest)
	for i := range oldest {
		pts[i].partial = true
	}
	first := true
	for i := range pts {
		if pts[i].partial {
			pts[i].listed = !first
			first = false
		}
	}
	base := s.activityBase()
	for i := range pts {
		t := s.origin.Add(-time.Duration(n-1-i) * step)
		null := !pts[i].players.ok
		pts[i].players = sample(base, t, r, i <= snapshotFrom, pointCoverage(pts[i].partial, i, oldest))
		if null {
			pts[i].players = metric{}
		}
		pts[i].ms, pts[i].aggregated = t.UnixMilli(), i <= snapshotFrom
		pts[i].endMS = t.Add(step).UnixMilli()
	}
	if n > 0 {
		pts[n-1].players = known(math.Round(s.platform))
	}
	return pts, step
}

// nullRuns marks the null points of an origin window: two runs at fixed
// places, plus sporadic single nulls. It leaves every other point's players
// known and marks the partial point after each run and the listed point
// before it.
func nullRuns(r *rand.Rand, pts []point) {
	n := len(pts)
	for i := range pts {
		pts[i].players.ok = true
	}
	for _, run := range [][2]int{{n * 3 / 10, 3}, {n * 8 / 10, 5}} {
		start, end := run[0], run[0]+run[1] // the run is [start, end)
		if start < 1 || end >= n-1 {
			continue
		}
		for i := start; i < end; i++ {
			pts[i].players.ok = false
		}
		pts[end].partial = true
		pts[start-1].listed = true
	}
	for i := 1; i < n-1; i++ {
		if r.IntN(500) == 0 && !pts[i].partial && !pts[i].listed {
			pts[i].players.ok = false
		}
	}
}

// activityBase is the base of the platform's curve (see players): the one
// whose curve passes through the platform's players at the origin.
func (s *Snapshot) activityBase() float64 { return s.platform / wave(referenceTime) }

// sample is the players of a point at t, of which the share coverage was
// recorded: whole for a snapshot, a fraction for an average (unless no one
// played).
func sample(base float64, t time.Time, r *rand.Rand, aggregated bool, coverage float64) metric {
	v := players(base, t, r) * coverage
	if !aggregated {
		return known(math.Round(v))
	}
	v = round(v, 3)
	if v == math.Trunc(v) && v > 0 {
		v += 0.25
	}
	return known(v)
}

// addedPoints are the points after the origin, one a step up to the
// catalogue's now, each drawn from its own time so that they do not
// depend on how far the clock has moved. Those older than a day are
// averages; one in 500 is null.
func (s *Snapshot) addedPoints(h historyRange, step time.Duration) []point {
	n := int(s.now.Sub(s.origin) / step)
	if n <= 0 {
		return nil
	}
	pts := make([]point, n)
	base := s.activityBase()
	seed := hash64(s.seed, "activity", h.name)
	src := rand.NewPCG(seed, 0)
	r := rand.New(src)
	for i := range pts {
		t := s.origin.Add(time.Duration(i+1) * step)
		src.Seed(seed, uint64(t.UnixMilli()))
		aggregated := s.now.Sub(t) > day
		pts[i] = point{ms: t.UnixMilli(), endMS: t.Add(step).UnixMilli(), aggregated: aggregated,
			players: sample(base, t, r, aggregated, 1)}
		if r.IntN(500) == 0 && i < n-1 {
			pts[i].players = metric{}
		}
	}
	return pts
}

// players is the platform-wide player count at t: a daily and a weekly wave
// over slow growth, with noise.
func players(base float64, t time.Time, r *rand.Rand) float64 {
	age := referenceTime.Sub(t).Hours() / 24 / 365
	v := base * wave(t)
	v *= 1 / (1 + 0.25*age)
	v += r.NormFloat64() * base * 0.02
	return math.Max(v, 0)
}

// wave is the daily and weekly rhythm of the platform's players at t, a
// factor between 0.62 and 1.38.
func wave(t time.Time) float64 {
	hours := float64(t.Unix()) / 3600
	return 1 + 0.3*math.Sin(2*math.Pi*(hours-6)/24) + 0.08*math.Sin(2*math.Pi*hours/168)
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

// entry is one analytics history entry before it is written.
type entry struct {
	t               time.Time
	form            int // the capturedAt spelling
	players, peak   metric
	partialCoverage bool
}

func (e *entry) json() historyJSON {
	return historyJSON{
		CapturedAt:      capturedAt(e.t, e.form),
		PartialCoverage: e.partialCoverage,
		Players:         e.players.json(),
		PlayersPeak:     e.peak.json(),
	}
}

// report builds the history and summary members of an analytics report for
// the entity named by parts: the entries of the origin, then one a day for
// the days Advance has added, the history keeping its length, drawn around
// level.
func (s *Snapshot) report(level float64, parts ...string) ([]historyJSON, summaryJSON) {
	entries := s.originEntries(level, parts)
	entries = append(entries, s.addedEntries(level, parts)...)
	entries = entries[len(entries)-historyDays:]
	history := make([]historyJSON, len(entries))
	for i := range entries {
		history[i] = entries[i].json()
	}
	return history, s.summary(entries)
}

// originEntries are the historyDays entries as of the origin, one a day,
// the newest within four hours before it.
func (s *Snapshot) originEntries(level float64, parts []string) []entry {
	r := rand.New(rand.NewPCG(hash64(s.seed, parts...), streamHistory))
	entries := make([]entry, historyDays)
	for i := range entries {
		age := historyDays - 1 - i
		t := s.origin.Add(-time.Duration(age)*day - time.Duration(r.IntN(4*3600))*time.Second)
		entries[i] = drawEntry(r, t.Add(fraction(r, i)), i, age, level)
		if i == 10 || i == historyDays-3 || r.IntN(14) == 0 {
			entries[i].players = metric{}
		}
		if i == 20 || r.IntN(5) == 0 {
			entries[i].peak = metric{}
		}
	}
	return entries
}

// drawEntry draws the metrics of the entry at t, spelled in form, age days
// before the origin, around level: entries 60 days old or more have
// partial coverage, and a few others too, and count only the share of the
// players that was recorded (entryCoverage).
func drawEntry(r *rand.Rand, t time.Time, form, age int, level float64) entry {
	e := entry{t: t, form: form, partialCoverage: age >= 60 || r.IntN(25) == 0}
	avg := level * (dayLow + daySpan*r.Float64()) * entryCoverage(e.partialCoverage, age)
	e.players = known(round(avg, 2+r.IntN(2)))
	if e.players.v == math.Trunc(e.players.v) && avg > 0 {
		// An average, not a count; the day's peak, at least the
		// next whole number above 1.15 times avg, stays above it.
		e.players.v += 0.5
	}
	e.peak = known(math.Ceil(avg * (dayPeakLow + dayPeakSpan*r.Float64())))
	return e
}

// addedEntries are the entries of the whole days after the origin up to
// now, each drawn from its own day so that they do not depend on how far
// the clock has moved.
func (s *Snapshot) addedEntries(level float64, parts []string) []entry {
	days := int(s.now.Sub(s.origin) / day)
	entries := make([]entry, days)
	seed := hash64(s.seed, parts...)
	for k := range entries {
		r := rand.New(rand.NewPCG(seed, uint64(k+1)))
		form := historyDays + k
		t := s.origin.Add(time.Duration(k+1)*day - time.Duration(r.IntN(4*3600))*time.Second)
		entries[k] = drawEntry(r, t.Add(fraction(r, form)), form, -(k + 1), level)
		if r.IntN(14) == 0 {
			entries[k].players = metric{}
		}
		if r.IntN(5) == 0 {
			entries[k].peak = metric{}
		}
	}
	return entries
}

// summary sums up the entries of each summary range that ends now: the
// average of the known players (a null is left out, never counted as 0),
// the highest known value (a day's average too: the players reached it
// that day, even when its peak is unavailable), and partial coverage when
// any entry has it, since a sum over a lower bound is a lower bound.
func (s *Snapshot) summary(entries []entry) summaryJSON {
	summary := summaryJSON{}
	for _, name := range []string{"24h", "7d", "30d", "90d"} {
		from := s.now.Add(-lookupRange(name).span)
		var sum, n, least, most float64
		peak, partial := metric{}, false
		highest := func(m metric) {
			if m.ok && (!peak.ok || m.v > peak.v) {
				peak = m
			}
		}
		for _, e := range entries {
			if e.t.Before(from) {
				continue
			}
			partial = partial || e.partialCoverage
			if e.players.ok {
				if n == 0 {
					least, most = e.players.v, e.players.v
				}
				least, most = min(least, e.players.v), max(most, e.players.v)
				sum, n = sum+e.players.v, n+1
			}
			highest(e.players)
			highest(e.peak)
		}
		average := metric{}
		if n > 0 {
			// Rounding must not carry the average past the values
			// it sums up.
			average = known(min(max(round(sum/n, 3), least), most))
		}
		summary[name] = rangeSummaryJSON{Average: average.json(), PartialCoverage: partial, Peak: peak.json()}
	}
	return summary
}

func (s *Snapshot) packageReport(p *pkg) packageReport {
	history, summary := s.report(p.level, "package", p.kind, p.ident)
	return packageReport{
		History:      history,
		Ident:        p.ident,
		Kind:         p.kind,
		Organization: nullString(p.org),
		Summary:      summary,
		Title:        p.title,
	}
}

func (s *Snapshot) orgReport(o *org) organizationReport {
	history, summary := s.report(o.level, "organization", o.ident)
	return organizationReport{
		History:  history,
		Ident:    o.ident,
		Name:     o.name,
		Packages: len(o.packages),
		Summary:  summary,
	}
}

// activityJSON is the body of /api/activity-history:
//
//	{"range":"7d","points":[[ms,players,current,start,end,aggregated,partial],…],"partialCoverage":[ms,…]}
//
// in that order. A point is seven numbers: its time in Unix ms; its players
// (null when unavailable, fractional for an average); 1 for the last point,
// the current one, else 0; the interval start and end in Unix ms of an
// average, both null for a snapshot; 1 for an average, 0 for a snapshot;
// 1 for partial coverage. partialCoverage lists the times of the points
// marked listed. It is written by hand, not by encoding/json: the range
// all holds 35,040 points.
type activityJSON struct {
	Range  string
	Points []point // the last is the current one
}

// encode writes a's body. It appends to one buffer rather than writing
// strings, which would allocate one for every number of every point.
func (a activityJSON) encode() []byte {
	b := make([]byte, 0, len(a.Points)*64)
	b = append(b, `{"range":`...)
	b = strconv.AppendQuote(b, a.Range)
	b = append(b, `,"points":[`...)
	for i, p := range a.Points {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, p.ms, 10)
		b = append(b, ',')
		if p.players.ok {
			b = strconv.AppendFloat(b, p.players.v, 'f', -1, 64)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, []string{",0,", ",1,"}[boolInt(i == len(a.Points)-1)]...)
		if p.aggregated {
			b = strconv.AppendInt(b, p.ms, 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, p.endMS, 10)
			b = append(b, ",1,"...)
		} else {
			b = append(b, "null,null,0,"...)
		}
		b = append(b, []string{"0]", "1]"}[boolInt(p.partial)]...)
	}
	b = append(b, `],"partialCoverage":[`...)
	sep := ""
	for _, p := range a.Points {
		if p.listed {
			b = append(b, sep...)
			b = strconv.AppendInt(b, p.ms, 10)
			sep = ","
		}
	}
	return append(b, "]}\n"...)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
