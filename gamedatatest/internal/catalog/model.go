package catalog

import (
	"cmp"
	"hash/fnv"
	"math"
	"time"
)

// The entities of the catalogue and the Snapshot that holds them: what
// every other file of the package reads, and which reads none of them.

// metric is a number that may be null ("unavailable", never zero).
type metric struct {
	v  float64
	ok bool
}

func known(v float64) metric { return metric{v: v, ok: true} }

type pkgKey struct{ kind, ident string }

type pkg struct {
	kind, ident                     string
	title, description, updateNotes string
	plain                           string // title before any hostile wrapping
	org                             string // "" when the package has no organization
	players, peak, rating           metric
	level                           float64 // the players its figures are drawn around (levels.go)
	tags                            []string
	online                          bool
	servers                         int
	updatedAt, createdAt            time.Time
}

type srv struct {
	id, name, mapName, version, region string
	pkgKind, pkgIdent, org             string // "" when unknown
	players                            metric
	maxPlayers                         int
	online                             bool
	lastSeen                           time.Time
}

type org struct {
	ident, name, description, website string
	verified                          bool
	createdAt                         time.Time
	packages                          []pkgKey
	level                             float64 // the sum of its packages' levels when generated
}

// Snapshot is one immutable state of the catalogue. A change (Reordered,
// Advance, UpdatePackage, AddPackage, RemovePackage) makes a new one and
// leaves the old as it was, so a reader holding it needs no lock.
type Snapshot struct {
	seed          int64
	origin        time.Time // referenceTime: where generated history ends
	now           time.Time // origin moved on by Advance
	modified      time.Time // Last-Modified of every response
	historyPoints int
	platform      float64 // the platform's current players when generated (platformPlayers)
	pkgs          []pkg   // default order: ident, then kind
	srvs          []srv   // default order: id
	orgs          []org   // default order: ident
	pkgIndex      map[pkgKey]int
	srvIndex      map[string]int
	orgIndex      map[string]int
}

// hash64 derives a stable seed for one entity from the catalogue seed and
// its identifying strings, independent of generation order.
func hash64(seed int64, parts ...string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(seed) >> (8 * i))
	}
	h.Write(b[:])
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

func round(v float64, digits int) float64 {
	p := math.Pow10(digits)
	return math.Round(v*p) / p
}

// setPlayers makes m the current players of p, and raises a known peak
// that m passes to m.
func (p *pkg) setPlayers(m metric) {
	p.players = m
	if m.ok && p.peak.ok && m.v > p.peak.v {
		p.peak = m
	}
}

func (s *Snapshot) index() {
	s.pkgIndex = make(map[pkgKey]int, len(s.pkgs))
	for i, p := range s.pkgs {
		s.pkgIndex[pkgKey{p.kind, p.ident}] = i
	}
	s.srvIndex = make(map[string]int, len(s.srvs))
	for i, v := range s.srvs {
		s.srvIndex[v.id] = i
	}
	s.orgIndex = make(map[string]int, len(s.orgs))
	for i, o := range s.orgs {
		s.orgIndex[o.ident] = i
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func byIdentKind(a, b pkg) int {
	return cmp.Or(cmp.Compare(a.ident, b.ident), cmp.Compare(a.kind, b.kind))
}
