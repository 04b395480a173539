package exporter

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
)

// Defaults of the backfill's labels: the scrape job docs/exporter.md configures
// and the exporter's default address, which Prometheus gives its series
// as job and instance.
const (
	DefaultJob      = "gamedata"
	DefaultInstance = DefaultListen
)

// BackfillConfig says what Backfill writes.
type BackfillConfig struct {
	// Range is the activity history's range, such as "7d" (the default).
	Range string
	// Kind is the directory kind Top reads: game when empty.
	Kind string
	// Top, above 0, adds the analytics history of the Top packages of
	// Kind with the most players now.
	Top int
	// Packages adds the analytics history of these packages.
	Packages []gamedata.PackageRef
	// Job and Instance are the labels Prometheus gives the exporter's
	// series: the scrape job's name and the target's address. With the
	// same labels, the exporter's series continue the backfilled ones.
	Job, Instance string
}

// Check reports the first thing wrong with c, before anything is asked.
func (c *BackfillConfig) Check() error {
	switch {
	case c.Top < 0 || c.Top > DefaultMaxSeries:
		return fmt.Errorf("--top %d: want 0 to %d", c.Top, DefaultMaxSeries)
	case c.Job == "" || c.Instance == "":
		return fmt.Errorf("--job %q --instance %q: want the job name and target address Prometheus scrapes the exporter with", c.Job, c.Instance)
	}
	return nil
}

// BackfillCounts say what a backfill wrote, and what it left out.
type BackfillCounts struct {
	// Points are the activity points written; Packages the packages whose
	// history was written, and Entries their history entries.
	Points, Packages, Entries int
	// Unstorable counts the activity points and history entries left
	// out because Prometheus cannot store their time (see storable).
	Unstorable int
	// LeftOut names the packages left out, sanitized, because their
	// labels, sanitized, are those of a package written before them:
	// the exporter leaves out the same ones.
	LeftOut []string
}

// Backfill writes the service's history to w as OpenMetrics text with
// timestamps, for promtool tsdb create-blocks-from openmetrics: the
// platform's activity points as gamedata_platform_players (a point with
// null players has none: unavailable, never 0) and
// gamedata_platform_players_partial (1 where the point is a lower
// bound), and, for the packages of cfg, their analytics history as
// gamedata_package_players, gamedata_package_players_peak and
// gamedata_package_info, in the names, labels and sanitized label values
// the exporter serves, with cfg's job and instance labels. Of two
// packages whose labels sanitize alike it writes the one the exporter
// exports, and names the other in the counts; a point or entry whose time
// Prometheus cannot store is left out and counted. Nothing is written
// when a request fails.
func Backfill(ctx context.Context, c *gamedata.Client, w io.Writer, cfg BackfillConfig) (BackfillCounts, error) {
	if err := cfg.Check(); err != nil {
		return BackfillCounts{}, err
	}
	var n BackfillCounts
	out := newOpenMetrics(cfg.Job, cfg.Instance)
	h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: cmp.Or(cfg.Range, gamedata.Range7d)})
	if err != nil {
		return n, fmt.Errorf("activity history: %w", err)
	}
	for _, p := range h.Points {
		v, ok := p.Players.Get()
		switch {
		case !ok:
		case !storable(p.Time):
			n.Unstorable++
		default:
			out.add(platformPlayers, p.Time, v)
			out.add(platformPartial, p.Time, flag(p.PartialCoverage))
			n.Points++
		}
	}
	pkgs, err := backfillPackages(ctx, c, cfg)
	if err != nil {
		return n, err
	}
	held := owners{}
	for _, p := range pkgs {
		it := packageItem(p.ref.Kind, p.ref.Ident, p.fields)
		switch held.claim(it) {
		case repeated:
			continue
		case taken:
			n.LeftOut = append(n.LeftOut, it.String())
			continue
		}
		r, err := c.Analytics.Package(ctx, p.ref.Kind, p.ref.Ident)
		if err != nil {
			return n, fmt.Errorf("analytics of %s/%s: %w", it.kind, it.ident, err)
		}
		n.Packages++
		for _, e := range r.History {
			writeEntry(out, &n, it, e)
		}
	}
	return n, out.write(w)
}

// writeEntry writes the history entry e of the package it to out, and
// counts it in n.
func writeEntry(out *openMetrics, n *BackfillCounts, it item, e gamedata.HistoryEntry) {
	players, hasPlayers := e.Metric("players").Get()
	peak, hasPeak := e.Metric("playersPeak").Get()
	switch {
	case !hasPlayers && !hasPeak:
		return
	case !storable(e.CapturedAt):
		n.Unstorable++
		return
	}
	if hasPlayers {
		out.add(packagePlayers, e.CapturedAt, players, it.kind, it.ident)
		// The info series holds wherever players do, so that a join on
		// it (the top games with their titles) works over the
		// backfilled range too.
		out.add(packageInfo, e.CapturedAt, 1, it.kind, it.ident, it.title, it.org)
		n.Entries++
	}
	if hasPeak {
		out.add(packagePlayersPeak, e.CapturedAt, peak, it.kind, it.ident)
	}
}

// Prometheus's backfill keeps a sample only from the Unix epoch on:
// promtool aligns its blocks by truncating division, so a time before
// 1970 falls before the first block and is dropped without a word, or
// not, depending on the file's other times. Nor does it keep a time far
// in the future: it reads the seconds as a float64, which past about the
// year 280,000 no longer holds the millisecond (2^53 ms was stored 1 ms
// early), and one sample at math.MaxInt64 ms left it writing no block at
// all. The last storable time is the end of the year 9999, the last an
// ISO 8601 time of the service can name.
var (
	firstStorable = time.UnixMilli(0)
	lastStorable  = time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)
)

// storable reports whether Prometheus's backfill stores a sample at t.
func storable(t time.Time) bool {
	return !t.Before(firstStorable) && !t.After(lastStorable)
}

// backfillPackage is a package to backfill: its identity as sent, which
// the analytics request needs, and the fields of its record or directory
// entry, for its info labels.
type backfillPackage struct {
	ref    gamedata.PackageRef
	fields gamedata.Fields
}

// backfillPackages are the packages whose history cfg asks for: those
// named, then the Top of Kind, in the order the exporter's sources read
// them, so that of two whose labels sanitize alike the same one comes
// first.
func backfillPackages(ctx context.Context, c *gamedata.Client, cfg BackfillConfig) ([]backfillPackage, error) {
	var out []backfillPackage
	for _, ref := range cfg.Packages {
		p, err := c.Packages.Get(ctx, ref.Kind, ref.Ident)
		if err != nil {
			return nil, fmt.Errorf("package %s/%s: %w", labelValue(ref.Kind), labelValue(ref.Ident), err)
		}
		out = append(out, backfillPackage{ref, p.Fields})
	}
	if cfg.Top == 0 {
		return out, nil
	}
	top, err := topPackages(ctx, c, cmp.Or(cfg.Kind, gamedata.KindGame), cfg.Top)
	if err != nil {
		return nil, err
	}
	for _, e := range top {
		out = append(out, backfillPackage{gamedata.PackageRef{Kind: e.Kind, Ident: e.Ident}, e.Fields})
	}
	return out, nil
}

// topPackages are the n packages of kind with the most players now (a
// null counts as none). It asks for the players sort and reads pages
// until it has n; when the service answers in another order, which it
// may (it documents no sort), it reads the whole directory of kind and
// keeps the n greatest, never more than n at a time.
func topPackages(ctx context.Context, c *gamedata.Client, kind string, n int) ([]gamedata.DashboardEntry, error) {
	var kept []gamedata.DashboardEntry
	sorted := true
	for page := 1; ; page++ {
		p, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{Kind: kind,
			ListOptions: gamedata.ListOptions{Sort: sortPlayers, Page: page, PageSize: pageSize}})
		if err != nil {
			return nil, fmt.Errorf("directory of %s, page %d: %w", labelValue(kind), page, err)
		}
		for _, e := range p.Items {
			if e.IsServer() {
				continue
			}
			if len(kept) > 0 && byPlayersDesc(kept[len(kept)-1], e) > 0 {
				sorted = false
			}
			kept = append(kept, e)
		}
		if sorted && len(kept) >= n {
			return kept[:n], nil
		}
		slices.SortStableFunc(kept, byPlayersDesc)
		kept = kept[:min(len(kept), n)]
		if !p.Pagination.HasNext || len(p.Items) == 0 {
			return kept, nil
		}
	}
}

// openMetrics collects timestamped samples by family and series and
// writes them as OpenMetrics text: each family's samples together, each
// series' in time order, one sample a millisecond.
type openMetrics struct {
	job, instance string
	families      []*family
	series        map[*family]map[string][]timedSample
}

type timedSample struct {
	ms int64
	v  float64
}

func newOpenMetrics(job, instance string) *openMetrics {
	return &openMetrics{job: labelValue(job), instance: labelValue(instance), series: map[*family]map[string][]timedSample{}}
}

// add records f's sample v at t, with f's label values.
func (o *openMetrics) add(f *family, t time.Time, v float64, labels ...string) {
	if o.series[f] == nil {
		o.series[f] = map[string][]timedSample{}
		o.families = append(o.families, f)
	}
	var b strings.Builder
	b.WriteString(`job="` + escapeLabel(o.job) + `",instance="` + escapeLabel(o.instance) + `"`)
	for i, name := range f.labels {
		b.WriteString("," + name + `="` + escapeLabel(labels[i]) + `"`)
	}
	key := b.String()
	o.series[f][key] = append(o.series[f][key], timedSample{t.UnixMilli(), v})
}

func (o *openMetrics) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range o.families {
		fmt.Fprintf(bw, "# HELP %s %s\n# TYPE %s %s\n", f.name, escapeHelp(f.help), f.name, f.kindName())
		for _, key := range slices.Sorted(maps.Keys(o.series[f])) {
			for _, s := range ordered(o.series[f][key]) {
				fmt.Fprintf(bw, "%s{%s} %s %s\n", f.name, key, strconv.FormatFloat(s.v, 'g', -1, 64), timestamp(s.ms))
			}
		}
	}
	bw.WriteString("# EOF\n")
	return bw.Flush()
}

// timestamp is ms, milliseconds since the Unix epoch, as OpenMetrics
// seconds with three decimals: -1500 is -1.500. The magnitude is taken as
// a uint64, which holds that of math.MinInt64 too.
func timestamp(ms int64) string {
	sign, u := "", uint64(ms)
	if ms < 0 {
		sign, u = "-", -u
	}
	return fmt.Sprintf("%s%d.%03d", sign, u/1000, u%1000)
}

// ordered is samples by time, the last of two in one millisecond kept:
// OpenMetrics allows one sample of a series a timestamp.
func ordered(samples []timedSample) []timedSample {
	slices.SortStableFunc(samples, func(a, b timedSample) int { return cmp.Compare(a.ms, b.ms) })
	out := samples[:0]
	for _, s := range samples {
		if len(out) > 0 && out[len(out)-1].ms == s.ms {
			out[len(out)-1] = s
			continue
		}
		out = append(out, s)
	}
	return out
}

// escapeLabel escapes a label value as the exposition formats do.
var escapeLabel = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace

// escapeHelp escapes a HELP text as OpenMetrics does.
var escapeHelp = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace
