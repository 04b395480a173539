package catalog

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Directory defaults.
const (
	defaultPageSize = 20
	defaultSort     = "ident"
)

// MaxPageSize is the largest page of a directory: a larger pageSize is
// served as this one, as the service does.
const MaxPageSize = 100

// Package kinds the dashboard accepts; "server" lists dedicated servers.
var (
	packageKinds   = []string{"game", "mod", "tool"}
	dashboardSorts = []string{"ident", "name", "players", "updated"}
	orgSorts       = []string{"ident", "name", "packages"}
)

// dirQuery is a directory query after normalization.
type dirQuery struct {
	kind           string // "" = every package
	sort           string
	filters        []string
	page, pageSize int
}

// parseDirQuery normalizes the query of a directory endpoint: an unknown
// kind, an unsupported sort or filter falls back to the default, a bad page
// to 1 and a bad page size to the default, never an error.
func parseDirQuery(q url.Values, sorts []string, filterOK func(string) bool, kinds bool) dirQuery {
	d := dirQuery{sort: defaultSort, page: 1, pageSize: defaultPageSize, filters: []string{}}
	if kinds {
		if k := q.Get("kind"); k == "server" || slices.Contains(packageKinds, k) {
			d.kind = k
		}
	}
	if s := q.Get("sort"); slices.Contains(sorts, s) {
		d.sort = s
	}
	for _, f := range q["filter"] {
		if filterOK(f) && !slices.Contains(d.filters, f) {
			d.filters = append(d.filters, f)
		}
	}
	if p, err := strconv.Atoi(q.Get("page")); err == nil && p >= 1 {
		d.page = p
	}
	if n, err := strconv.Atoi(q.Get("pageSize")); err == nil && n >= 1 {
		d.pageSize = min(n, MaxPageSize)
	}
	return d
}

func dashboardFilter(f string) bool {
	return f == "online" || f == "has-players" || (strings.HasPrefix(f, "org:") && len(f) > len("org:"))
}

func orgFilter(f string) bool { return f == "has-packages" || f == "verified" }

// row is one dashboard entry: a package or a server.
type row struct {
	p *pkg
	s *srv
}

func (r row) kind() string {
	if r.p != nil {
		return r.p.kind
	}
	return "server"
}

func (r row) key() string {
	if r.p != nil {
		return r.p.ident
	}
	return r.s.id
}

func (r row) name() string {
	if r.p != nil {
		return r.p.title
	}
	return r.s.name
}

func (r row) players() metric {
	if r.p != nil {
		return r.p.players
	}
	return r.s.players
}

// entry is r's dashboard entry, a packageJSON or a serverJSON.
func (r row) entry() any {
	if r.p != nil {
		return r.p.entry()
	}
	return r.s.entry()
}

func (r row) match(f string) bool {
	switch {
	case f == "online":
		if r.p != nil {
			return r.p.online
		}
		return r.s.online
	case f == "has-players":
		m := r.players()
		return m.ok && m.v > 0
	case strings.HasPrefix(f, "org:"):
		if r.p != nil {
			return r.p.org == f[len("org:"):]
		}
		return r.s.org == f[len("org:"):]
	}
	return true
}

// byKey is the default order and the tie-break of every other order.
func byKey(a, b row) int {
	return cmp.Or(cmp.Compare(a.key(), b.key()), cmp.Compare(a.kind(), b.kind()))
}

// dashboardRows is every entry of the dashboard for d, in order.
func (s *Snapshot) dashboardRows(d dirQuery) []row {
	var rows []row
	if d.kind == "server" {
		for i := range s.srvs {
			rows = append(rows, row{s: &s.srvs[i]})
		}
	} else {
		for i := range s.pkgs {
			if d.kind == "" || s.pkgs[i].kind == d.kind {
				rows = append(rows, row{p: &s.pkgs[i]})
			}
		}
	}
	rows = slices.DeleteFunc(rows, func(r row) bool {
		for _, f := range d.filters {
			if !r.match(f) {
				return true
			}
		}
		return false
	})
	switch d.sort {
	case "name":
		slices.SortStableFunc(rows, func(a, b row) int {
			return cmp.Or(cmp.Compare(strings.ToLower(a.name()), strings.ToLower(b.name())), byKey(a, b))
		})
	case "players":
		slices.SortStableFunc(rows, func(a, b row) int {
			pa, pb := a.players(), b.players()
			switch {
			case pa.ok && !pb.ok:
				return -1
			case !pa.ok && pb.ok:
				return 1
			}
			return cmp.Or(cmp.Compare(pb.v, pa.v), byKey(a, b))
		})
	case "updated":
		slices.SortStableFunc(rows, func(a, b row) int {
			ta, tb := updated(a), updated(b)
			return cmp.Or(tb.Compare(ta), byKey(a, b))
		})
	default:
		slices.SortStableFunc(rows, byKey)
	}
	return rows
}

func updated(r row) time.Time {
	if r.p != nil {
		return r.p.updatedAt
	}
	return r.s.lastSeen
}

// orgRows is every entry of the organization directory for d, in order.
func (s *Snapshot) orgRows(d dirQuery) []*org {
	var rows []*org
	for i := range s.orgs {
		o := &s.orgs[i]
		keep := true
		for _, f := range d.filters {
			switch f {
			case "has-packages":
				keep = keep && len(o.packages) > 0
			case "verified":
				keep = keep && o.verified
			}
		}
		if keep {
			rows = append(rows, o)
		}
	}
	switch d.sort {
	case "name":
		slices.SortStableFunc(rows, func(a, b *org) int {
			return cmp.Or(cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name)), cmp.Compare(a.ident, b.ident))
		})
	case "packages":
		slices.SortStableFunc(rows, func(a, b *org) int {
			return cmp.Or(cmp.Compare(len(b.packages), len(a.packages)), cmp.Compare(a.ident, b.ident))
		})
	default:
		slices.SortStableFunc(rows, func(a, b *org) int { return cmp.Compare(a.ident, b.ident) })
	}
	return rows
}

// each is what f makes of every row, in order; empty, not nil, for no
// rows.
func each[R, E any](rows []R, f func(R) E) []E {
	out := make([]E, len(rows))
	for i, r := range rows {
		out[i] = f(r)
	}
	return out
}

// Page is one page of a directory as the twin serves it: its body, or,
// when the page asked for is beyond the last, no body and the page numbers
// a redirect to the last needs.
type Page struct {
	Body  []byte // nil when Asked is beyond Last
	Asked int    // the page asked for, after normalization
	Last  int    // the last page; 0 for an empty directory
}

// Dashboard is the page of /api/dashboard that q asks for.
func (s *Snapshot) Dashboard(q url.Values) Page {
	d := parseDirQuery(q, dashboardSorts, dashboardFilter, true)
	return page(d, s.dashboardRows(d), func(rows []row, p paginationJSON) any {
		return dashboardPage{Filters: d.filters, Items: each(rows, row.entry), Kind: nullString(d.kind), Pagination: p, Sort: d.sort}
	})
}

// Organizations is the page of /api/organizations that q asks for.
func (s *Snapshot) Organizations(q url.Values) Page {
	d := parseDirQuery(q, orgSorts, orgFilter, false)
	return page(d, s.orgRows(d), func(rows []*org, p paginationJSON) any {
		return organizationPage{Filters: d.filters, Items: each(rows, (*org).entry), Pagination: p, Sort: d.sort}
	})
}

// page is one page of a directory of rows: the body that envelope makes of
// the page's rows and its pagination, or none when d.page is beyond the
// last.
func page[T any](d dirQuery, rows []T, envelope func([]T, paginationJSON) any) Page {
	total := len(rows)
	totalPages := (total + d.pageSize - 1) / d.pageSize
	if totalPages >= 1 && d.page > totalPages {
		return Page{Asked: d.page, Last: totalPages}
	}
	if totalPages == 0 {
		d.page = 1
	}
	lo := min((d.page-1)*d.pageSize, total)
	hi := min(lo+d.pageSize, total)
	p := paginationJSON{HasNext: d.page < totalPages, Page: d.page, PageSize: d.pageSize, Total: total, TotalPages: totalPages}
	return Page{Body: Encode(envelope(rows[lo:hi], p)), Asked: d.page, Last: totalPages}
}
