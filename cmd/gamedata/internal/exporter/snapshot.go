package exporter

import (
	"maps"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// snapshot is what the last poll read, as metrics ready for a scrape: a
// scrape sends them and asks the service nothing. A poll replaces it
// whole, so an entry that left the directory has no series after the
// next poll and a scrape never sees half of one poll.
type snapshot struct {
	metrics []prometheus.Metric
	// members are the families derived from the members of this poll's
	// entries, for the / page.
	members []*family
	// parts are what it was built from, by source: the next poll starts
	// from them, and a scrape builds it again from them once one has
	// grown stale.
	parts []part
	// staleAt is when the oldest part it exports grows stale; zero when
	// it exports none.
	staleAt time.Time
}

// fresh is parts without what has grown stale at now, more than bound
// after it was read, and when the oldest part left grows stale (zero for
// none). A stale part is dropped whole, as though never read.
func fresh(parts []part, now time.Time, bound time.Duration) ([]part, time.Time) {
	parts = slices.Clone(parts)
	var staleAt time.Time
	for i, p := range parts {
		switch {
		case p.at.IsZero():
		case now.Sub(p.at) > bound:
			parts[i] = part{}
		case len(p.items) > 0 || p.activity != nil:
			if end := p.at.Add(bound); staleAt.IsZero() || end.Before(staleAt) {
				staleAt = end
			}
		}
	}
	return parts, staleAt
}

// report is what a build leaves out, for the log.
type report struct {
	series int
	// dropped counts entries not exported because of the series cap;
	// cut names the walks that stopped there.
	dropped int
	cut     []string
	// collisions are entries whose labels, sanitized, are those of
	// another entry (sanitized for the log).
	collisions []string
	// skipped are numeric members with no family of their own: a name
	// with nothing left, too long, or taken (sanitized for the log).
	skipped []string
}

// fixedSuffixes are the package families that a member's name cannot
// take.
var fixedSuffixes = []string{"players", "players_peak", "info"}

// build makes the snapshot of parts, in source order, with at most
// maxSeries series of packages and servers: an entry is exported whole or
// not at all.
func build(parts []part, names []string, maxSeries int) (*snapshot, report) {
	members, skipped := memberFamilies(parts)
	b := builder{max: maxSeries, owners: owners{}, members: members}
	b.rep.skipped = skipped
	for i, p := range parts {
		if p.cut {
			b.rep.cut = append(b.rep.cut, names[i])
		}
		for _, it := range p.items {
			b.add(it)
		}
	}
	for _, p := range parts {
		if pt := p.activity; pt != nil {
			if v, ok := pt.Players.Get(); ok {
				b.metrics = append(b.metrics, platformPlayers.metric(v))
			}
			b.metrics = append(b.metrics, platformPartial.metric(flag(pt.PartialCoverage)))
		}
	}
	snap := &snapshot{metrics: b.metrics, parts: parts}
	for _, m := range slices.Sorted(maps.Keys(members)) {
		snap.members = append(snap.members, members[m])
	}
	return snap, b.rep
}

type builder struct {
	max     int
	metrics []prometheus.Metric
	rep     report
	capped  bool
	owners  owners
	members map[string]*family
}

func (b *builder) add(it item) {
	if b.capped {
		b.rep.dropped++
		return
	}
	switch b.owners.claim(it) {
	case repeated:
		return
	case taken:
		b.rep.collisions = append(b.rep.collisions, it.String())
		return
	}
	ms := b.pkg
	if it.server {
		ms = b.server
	}
	series := slices.DeleteFunc(ms(it), func(m prometheus.Metric) bool { return m == nil })
	if b.rep.series+len(series) > b.max {
		// Every later entry is dropped too, so the labels just claimed
		// can no longer be another's.
		b.capped = true
		b.rep.dropped++
		return
	}
	b.rep.series += len(series)
	b.metrics = append(b.metrics, series...)
}

func (b *builder) pkg(it item) []prometheus.Metric {
	var ms []prometheus.Metric
	if v, ok := it.players.Get(); ok {
		ms = append(ms, packagePlayers.metric(v, it.kind, it.ident))
	}
	if v, ok := it.peak.Get(); ok {
		ms = append(ms, packagePlayersPeak.metric(v, it.kind, it.ident))
	}
	for _, m := range it.members {
		if fam := b.members[m.name]; fam != nil {
			ms = append(ms, fam.metric(m.value, it.kind, it.ident))
		}
	}
	return append(ms, packageInfo.metric(1, it.kind, it.ident, it.title, it.org))
}

func (b *builder) server(it item) []prometheus.Metric {
	var ms []prometheus.Metric
	if v, ok := it.players.Get(); ok {
		ms = append(ms, serverPlayers.metric(v, it.id))
	}
	if v, ok := it.peak.Get(); ok {
		ms = append(ms, serverMaxPlayers.metric(v, it.id))
	}
	return ms
}

// memberFamilies gives each numeric member of the package items (a number
// in at least one of them) a family, in the order of the member names, so
// that of two names that derive the same metric name the first always
// wins. It returns the members left without one, sanitized.
func memberFamilies(parts []part) (map[string]*family, []string) {
	numeric := make(map[string]bool)
	long := make(map[string]bool)
	for _, p := range parts {
		for _, it := range p.items {
			for _, m := range it.members {
				numeric[m.name] = true
			}
			for _, m := range it.skipped {
				long[m] = true
			}
		}
	}
	taken := make(map[string]bool)
	for _, s := range fixedSuffixes {
		taken[s] = true
	}
	families := make(map[string]*family)
	skipped := slices.Sorted(maps.Keys(long))
	for _, m := range slices.Sorted(maps.Keys(numeric)) {
		suffix, ok := memberSuffix(m)
		if !ok || taken[suffix] {
			skipped = append(skipped, labelValue(m))
			continue
		}
		taken[suffix] = true
		families[m] = memberFamily(m, suffix)
	}
	return families, skipped
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
