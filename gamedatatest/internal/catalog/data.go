package catalog

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// referenceTime is "now" for the generated data, so that two servers with the
// same seed serve identical bytes whatever the wall clock says.
var referenceTime = time.Date(2026, time.November, 20, 10, 0, 0, 0, time.UTC)

// Streams of the seeded PCG generators; the data, the reordering and the
// histories each draw from their own stream so one never shifts another
// (the twin's faults draw from a fourth, 0x6661756c74000002).
const (
	streamData    = 0x6461746100000001
	streamReorder = 0x72656f7264000003
	streamHistory = 0x6869737400000004
)

var serverRanges = []string{"192.0.2.", "198.51.100.", "203.0.113."}

var serverPorts = []int{
	27015, 27016, 27017, 27018, 27019, 27020, 27021, 27022, 27023, 27024,
	27025, 27026, 27027, 27028, 27029, 27030, 27031, 27032, 27033, 27034, 7777, 25565,
}

// maxServers is the number of distinct canonical ids the documentation
// address ranges and ports above allow.
var maxServers = len(serverRanges) * 254 * len(serverPorts)

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// entry is p's dashboard entry.
func (p *pkg) entry() packageJSON {
	return packageJSON{
		Ident:        p.ident,
		Kind:         p.kind,
		Online:       p.online,
		Organization: nullString(p.org),
		Players:      p.players.json(),
		PlayersPeak:  p.peak.json(),
		Rating:       p.rating.json(),
		Servers:      p.servers,
		Title:        p.title,
		UpdatedAt:    stamp(p.updatedAt),
	}
}

// record is p's entry with its description, update notes, tags and
// creation time.
func (p *pkg) record() packageJSON {
	j := p.entry()
	created := stamp(p.createdAt)
	j.CreatedAt, j.Description, j.UpdateNotes = &created, &p.description, &p.updateNotes
	j.Tags = p.tags
	if j.Tags == nil {
		j.Tags = []string{} // present, if empty
	}
	return j
}

func (s *srv) ref() *refJSON {
	if s.pkgIdent == "" {
		return nil
	}
	return &refJSON{Ident: s.pkgIdent, Kind: s.pkgKind}
}

// entry is s's dashboard entry.
func (s *srv) entry() serverJSON {
	j := s.record()
	j.Kind, j.Region, j.Version = "server", nil, nil
	return j
}

// record is s's record: its entry without kind, with version and region.
func (s *srv) record() serverJSON {
	return serverJSON{
		ID:         s.id,
		LastSeen:   stamp(s.lastSeen),
		Map:        s.mapName,
		MaxPlayers: s.maxPlayers,
		Name:       s.name,
		Online:     s.online,
		Package:    s.ref(),
		Players:    s.players.json(),
		Region:     &s.region,
		Version:    &s.version,
	}
}

// entry is o's entry in the organization directory and in a search.
func (o *org) entry() organizationJSON {
	return organizationJSON{
		Description: o.description,
		Ident:       o.ident,
		Name:        o.name,
		Packages:    len(o.packages),
		Verified:    o.verified,
		Website:     nullString(o.website),
	}
}

func (o *org) record() organizationRecord {
	refs := make([]refJSON, len(o.packages))
	for i, k := range o.packages {
		refs[i] = refJSON{Ident: k.ident, Kind: k.kind}
	}
	return organizationRecord{
		CreatedAt:   stamp(o.createdAt),
		Description: o.description,
		Ident:       o.ident,
		Name:        o.name,
		Packages:    refs,
		Verified:    o.verified,
		Website:     nullString(o.website),
	}
}

// Config says what catalogue Generate builds.
type Config struct {
	Seed                             int64
	Packages, Servers, Organizations int  // sizes, at least 0
	HistoryPoints                    int  // points in every activity range; 0 for the natural resolution
	Awkward                          bool // add the packages with awkward idents
}

// Generate builds the catalogue for cfg. It is deterministic in cfg: the
// parts below draw from one generator in a fixed order.
func Generate(cfg Config) *Snapshot {
	r := rand.New(rand.NewPCG(uint64(cfg.Seed), streamData))
	now := referenceTime
	s := &Snapshot{seed: cfg.Seed, origin: now, now: now, modified: now, historyPoints: cfg.HistoryPoints}
	s.orgs = generateOrgs(r, now, cfg.Organizations)
	s.pkgs = generatePackages(r, cfg.Seed, now, cfg.Packages, s.orgs)
	if cfg.Awkward {
		for i, ident := range awkwardIdents {
			s.pkgs = append(s.pkgs, newPackage(r, cfg.Seed, now, "game", ident, "Awkward "+strconv.Itoa(i+1)))
		}
	}
	s.srvs = generateServers(r, now, min(cfg.Servers, maxServers), s.pkgs)
	for i := range s.pkgs {
		if s.pkgs[i].servers > 0 && r.IntN(4) > 0 {
			s.pkgs[i].online = true
		}
	}

	slices.SortFunc(s.pkgs, byIdentKind)
	slices.SortFunc(s.srvs, func(a, b srv) int { return cmp.Compare(a.id, b.id) })
	slices.SortFunc(s.orgs, func(a, b org) int { return cmp.Compare(a.ident, b.ident) })
	s.index()
	for _, p := range s.pkgs {
		if p.org != "" {
			o := &s.orgs[s.orgIndex[p.org]]
			o.packages = append(o.packages, pkgKey{p.kind, p.ident})
			o.level += p.level
		}
	}
	s.platform = platformPlayers(s.pkgs)
	return s
}

// specialOrgs are organizations with idents that test a client: digits
// only, an underscore, a dot.
var specialOrgs = map[int][2]string{5: {"north_wind", "North Wind"}, 9: {"1999", "1999"}, 13: {"studio.nine", "Studio.Nine"}}

func generateOrgs(r *rand.Rand, now time.Time, n int) []org {
	var orgs []org
	idents := map[string]bool{}
	for i := range n {
		name := pick(r, orgPrefixes) + " " + pick(r, orgSuffixes)
		ident := slug(name)
		if sp, ok := specialOrgs[i]; ok {
			ident, name = sp[0], sp[1]
		}
		for n := 2; idents[ident]; n++ {
			ident = slug(name) + "-" + strconv.Itoa(n)
		}
		idents[ident] = true
		o := org{
			ident:       ident,
			name:        name,
			description: prose(r, sentences, 1+r.IntN(3)),
			verified:    r.IntN(3) > 0,
			createdAt:   now.Add(-time.Duration(200+r.IntN(3000)) * 24 * time.Hour).Truncate(time.Second),
		}
		if i%11 == 6 {
			o.name = hostile(i/11, o.name)
		}
		if i%5 == 2 {
			o.description = hostile(i/5+4, o.description)
		}
		if r.IntN(3) > 0 {
			o.website = "https://" + slug(name) + ".example.org/"
		}
		orgs = append(orgs, o)
	}
	return orgs
}

func generatePackages(r *rand.Rand, seed int64, now time.Time, n int, orgs []org) []pkg {
	// The last organization publishes nothing, so has-packages filters.
	publishers := len(orgs)
	if publishers > 1 {
		publishers--
	}
	pkgs := make([]pkg, 0, n)
	idents := distinctIdents{used: make(map[pkgKey]bool, n)}
	for i := range n {
		kind, title := packageTitle(r, i)
		base := slug(title)
		kind, ident := specialIdent(i, kind, base, pkgs)
		ident = idents.claim(kind, ident, base)
		p := newPackage(r, seed, now, kind, ident, title)
		if publishers > 0 && r.IntN(100) >= 3 {
			p.org = orgs[r.IntN(publishers)].ident
		}
		if i%9 == 4 {
			p.title = hostile(i/9, p.title)
		}
		if i%4 == 1 {
			p.description = hostile(i/4+2, p.description)
		}
		if i%5 == 2 {
			p.updateNotes = hostile(i/5+5, p.updateNotes)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// distinctIdents hands out package idents: a taken one becomes its title's
// slug with the smallest free suffix -2, -3, ….
type distinctIdents struct {
	used map[pkgKey]bool
	// next is the suffix to try first for a kind and slug. Every smaller
	// one was taken when it was passed, and idents are never freed, so
	// starting there finds the smallest free one without walking the whole
	// run again: a large catalogue, where a title recurs thousands of
	// times, stays linear.
	next map[pkgKey]int
}

func (d *distinctIdents) claim(kind, ident, base string) string {
	if d.used[pkgKey{kind, ident}] {
		if d.next == nil {
			d.next = map[pkgKey]int{}
		}
		k := pkgKey{kind, base}
		n := max(d.next[k], 2)
		for d.used[pkgKey{kind, base + "-" + strconv.Itoa(n)}] {
			n++
		}
		ident = base + "-" + strconv.Itoa(n)
		d.next[k] = n + 1
	}
	d.used[pkgKey{kind, ident}] = true
	return ident
}

// packageTitle draws the kind and title of the i-th package.
func packageTitle(r *rand.Rand, i int) (kind, title string) {
	kind = "game"
	switch x := r.IntN(100); {
	case i == 1 || (i > 2 && x < 12):
		kind = "mod"
	case i == 2 || (i > 2 && x < 20):
		kind = "tool"
	}
	title = pick(r, adjectives) + " " + pick(r, nouns)
	switch kind {
	case "mod":
		title += " Overhaul"
	case "tool":
		title += " Map Editor"
	}
	if r.IntN(10) < 3 {
		title += " " + strconv.Itoa(2+r.IntN(9))
	}
	return kind, title
}

// specialIdent replaces the kind and ident of a few packages with ones that
// test a client.
func specialIdent(i int, kind, ident string, pkgs []pkg) (string, string) {
	switch i {
	case 4:
		return "game", "1337"
	case 7:
		return "game", "hello.world"
	case 11:
		return "game", "under_score"
	case 15:
		// The same ident as package 0 under another kind: a package is
		// identified by kind and ident together.
		if len(pkgs) > 0 {
			if pkgs[0].kind == "mod" {
				return "game", pkgs[0].ident
			}
			return "mod", pkgs[0].ident
		}
	}
	return kind, ident
}

func generateServers(r *rand.Rand, now time.Time, n int, pkgs []pkg) []srv {
	var games []int
	for i := range pkgs {
		if pkgs[i].kind == "game" {
			games = append(games, i)
		}
	}
	if len(games) == 0 {
		for i := range pkgs {
			games = append(games, i)
		}
	}
	ids := serverIDs{used: map[string]bool{}}
	// seated counts the players already on each package's servers, which
	// together never outnumber the package's current players.
	seated := make([]float64, len(pkgs))
	var srvs []srv
	for i := range n {
		sv := srv{
			id:         ids.next(r),
			mapName:    pick(r, mapNames),
			version:    fmt.Sprintf("1.%d.%d", r.IntN(20), r.IntN(10)),
			region:     pick(r, regions),
			maxPlayers: []int{8, 16, 24, 32, 64, 100}[r.IntN(6)],
			online:     r.IntN(10) < 8,
			lastSeen:   now.Add(-time.Duration(r.IntN(3600)) * time.Second),
		}
		label := "Server"
		game := -1
		if len(games) > 0 {
			game = games[r.IntN(len(games))]
			p := &pkgs[game]
			sv.pkgKind, sv.pkgIdent, sv.org = p.kind, p.ident, p.org
			p.servers++
			label = p.plain
		}
		sv.name = serverName(r, sv.region, label)
		if i%7 == 3 {
			sv.name = hostile(i/7+1, sv.name)
		}
		if !sv.online {
			sv.lastSeen = sv.lastSeen.Add(-time.Duration(1+r.IntN(72)) * time.Hour)
			sv.players = known(0)
		} else {
			sv.players = known(float64(r.IntN(sv.maxPlayers + 1)))
			if game >= 0 && pkgs[game].players.ok {
				sv.players.v = min(sv.players.v, max(pkgs[game].players.v-seated[game], 0))
				seated[game] += sv.players.v
			}
		}
		if r.IntN(20) == 0 {
			sv.players = metric{}
		}
		srvs = append(srvs, sv)
	}
	return srvs
}

// serverIDs draws distinct server ids.
type serverIDs struct {
	used map[string]bool
	seq  int // the in-order fallback's cursor
}

func (ids *serverIDs) next(r *rand.Rand) string {
	id := ""
	for try := 0; try < 64 && (id == "" || ids.used[id]); try++ {
		port := 27015
		if try > 0 {
			port = pick(r, serverPorts)
		}
		id = pick(r, serverRanges) + strconv.Itoa(1+r.IntN(254)) + ":" + strconv.Itoa(port)
	}
	for ; ids.used[id]; ids.seq++ { // in order, for crowded catalogues
		next := ids.seq
		id = serverRanges[next%3] + strconv.Itoa(1+(next/3)%254) + ":" + strconv.Itoa(serverPorts[next/(3*254)])
	}
	ids.used[id] = true
	return id
}

func serverName(r *rand.Rand, region, label string) string {
	switch r.IntN(4) {
	case 0:
		return "[" + region + "] " + label + " #" + strconv.Itoa(1+r.IntN(20))
	case 1:
		return label + " | 24/7 | casual"
	case 2:
		return "Сервер 🎮 " + strconv.Itoa(1+r.IntN(99))
	}
	return label + " official"
}

// newPackage draws the package kind/ident. Its current players are drawn
// first and its level from them (packageLevel), so that its peak and its
// analytics history agree with what the dashboard shows now.
func newPackage(r *rand.Rand, seed int64, now time.Time, kind, ident, title string) pkg {
	p := pkg{
		kind:        kind,
		ident:       ident,
		title:       title,
		plain:       title,
		description: prose(r, sentences, 1+r.IntN(4)),
		updateNotes: prose(r, updateLines, 1+r.IntN(3)),
		online:      r.IntN(10) < 6,
		createdAt:   now.Add(-time.Duration(30+r.IntN(2000)) * 24 * time.Hour).Truncate(time.Second),
	}
	p.updatedAt = now.Add(-time.Duration(r.IntN(400*24*3600)) * time.Second)
	if p.updatedAt.Before(p.createdAt) {
		p.updatedAt = p.createdAt
	}
	p.players = known(0)
	if p.online {
		p.players = known(float64(int(math.Exp(r.Float64() * 9))))
	}
	// A package whose players are unavailable still has players; only
	// the count is unknown, so its level comes from the count drawn.
	p.level = packageLevel(seed, kind, ident, p.players.v)
	switch x := r.IntN(100); {
	case x < 6:
		p.players = metric{}
	case x < 45:
		p.peak = metric{}
	default:
		p.peak = known(packagePeak(p.level, r.Float64()))
	}
	if r.IntN(5) > 0 {
		p.rating = known(round(1+r.Float64()*4, 1))
	}
	for _, j := range r.Perm(len(tagWords))[:1+r.IntN(4)] {
		p.tags = append(p.tags, tagWords[j])
	}
	return p
}

// Reordered returns a copy of s in which the players of some packages and
// servers have moved, so that the players-sorted order differs. step makes
// each reordering distinct and reproducible.
func (s *Snapshot) Reordered(step uint64) *Snapshot {
	r := rand.New(rand.NewPCG(uint64(s.seed)^step, streamReorder))
	n := *s
	n.modified = later(n.now, n.modified.Add(time.Second))
	n.pkgs = slices.Clone(s.pkgs)
	n.srvs = slices.Clone(s.srvs)
	move := func(m *metric, limit int) {
		if m.ok {
			*m = known(float64(r.IntN(limit + 1)))
		}
	}
	for range max(1, len(n.pkgs)*15/100) {
		if len(n.pkgs) == 0 {
			break
		}
		p := &n.pkgs[r.IntN(len(n.pkgs))]
		players := p.players
		move(&players, 8000)
		p.setPlayers(players)
	}
	for range max(1, len(n.srvs)*15/100) {
		if len(n.srvs) == 0 {
			break
		}
		v := &n.srvs[r.IntN(len(n.srvs))]
		move(&v.players, v.maxPlayers)
	}
	// The busiest package and server fall to the bottom, so that the order
	// changes even in a tiny catalogue.
	if top := busiest(n.pkgs, func(p pkg) metric { return p.players }); top >= 0 {
		n.pkgs[top].players = known(0)
	}
	if top := busiest(n.srvs, func(v srv) metric { return v.players }); top >= 0 {
		n.srvs[top].players = known(0)
	}
	return &n
}

func busiest[T any](xs []T, players func(T) metric) int {
	top := -1
	for i, x := range xs {
		if m := players(x); m.ok && m.v > 0 && (top < 0 || m.v > players(xs[top]).v) {
			top = i
		}
	}
	return top
}
