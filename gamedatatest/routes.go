package gamedatatest

import (
	_ "embed"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

//go:embed openapi.json
var openAPIDocument []byte

// searchLimit caps each list of a search answer.
const searchLimit = 25

// reply is a whole response, built before anything is written so that a
// fault can truncate the real body.
type reply struct {
	status   int
	header   http.Header
	body     []byte
	family   Family    // of the endpoint that answered; "" for none
	modified time.Time // Last-Modified of the data answered from
}

func jsonReply(status int, v any) reply { return reply{status: status, body: encode(v)} }

func errorReply(status int, msg string) reply {
	return jsonReply(status, errorJSON{Error: msg})
}

var notFound = errorReply(http.StatusNotFound, "not found")

// endpoint is how the twin answers one path of the service's route table,
// internal/manifest: its family, and its answer given the values of the
// path's parameters.
type endpoint struct {
	family Family
	serve  func(s *snapshot, r *http.Request, args []string) reply
}

// endpoints answer the paths of manifest.Endpoints, by path; a test checks
// that every one is answered.
var endpoints = map[string]endpoint{
	"/api/dashboard": {FamilyDashboard, func(s *snapshot, r *http.Request, _ []string) reply {
		return s.dashboard(r, r.URL.Query())
	}},
	"/api/organizations": {FamilyOrganizations, func(s *snapshot, r *http.Request, _ []string) reply {
		return s.organizations(r, r.URL.Query())
	}},
	"/api/search": {FamilySearch, func(s *snapshot, r *http.Request, _ []string) reply {
		return jsonReply(http.StatusOK, s.search(r.URL.Query().Get("q")))
	}},
	"/api/activity-history": {FamilyActivity, func(s *snapshot, r *http.Request, _ []string) reply {
		return reply{status: http.StatusOK, body: s.activity(r.URL.Query().Get("range"))}
	}},
	"/api/packages/{kind}/{ident}": {FamilyPackage, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.packageRecord(a[0], a[1]))
	}},
	"/api/servers/{id}": {FamilyServer, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.serverRecord(a[0]))
	}},
	"/api/organizations/{ident}": {FamilyOrganization, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.orgRecord(a[0]))
	}},
	"/api/analytics/packages": {FamilyAnalyticsSearch, func(s *snapshot, r *http.Request, _ []string) reply {
		return jsonReply(http.StatusOK, s.analyticsSearch(r.URL.Query().Get("q")))
	}},
	"/api/analytics/packages/{kind}/{ident}": {FamilyAnalyticsPackage, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.packageAnalytics(a[0], a[1]))
	}},
	"/api/analytics/organizations/{ident}": {FamilyAnalyticsOrganization, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.orgAnalytics(a[0]))
	}},
	"/openapi.json": {FamilyOpenAPI, func(*snapshot, *http.Request, []string) reply {
		// The document does not change with the data.
		return reply{status: http.StatusOK, body: openAPIDocument, modified: referenceTime}
	}},
}

// route answers a GET. A dashboard request is counted for ReorderEvery
// before it reads the catalogue, so a shift it causes applies to it.
func (h *handler) route(r *http.Request) reply {
	m, args, ok := manifest.Match(r.URL.EscapedPath())
	e, answered := endpoints[m.Path]
	if !ok || !answered {
		return notFound
	}
	if e.family == FamilyDashboard {
		h.countDirectoryRequest()
	}
	s := h.snap.Load()
	rep := e.serve(s, r, args)
	rep.family = e.family
	if rep.modified.IsZero() {
		rep.modified = s.modified
	}
	return rep
}

// found answers v, or 404 when there is no v.
func found[T any](v *T) reply {
	if v == nil {
		return notFound
	}
	return jsonReply(http.StatusOK, v)
}

func (s *snapshot) dashboard(r *http.Request, q url.Values) reply {
	d := parseDirQuery(q, dashboardSorts, dashboardFilter, true)
	return page(r, d, s.dashboardRows(d), func(rows []row, p paginationJSON) any {
		return dashboardPage{Filters: d.filters, Items: each(rows, row.entry), Kind: nullString(d.kind), Pagination: p, Sort: d.sort}
	})
}

func (s *snapshot) organizations(r *http.Request, q url.Values) reply {
	d := parseDirQuery(q, orgSorts, orgFilter, false)
	return page(r, d, s.orgRows(d), func(rows []*org, p paginationJSON) any {
		return organizationPage{Filters: d.filters, Items: each(rows, (*org).entry), Pagination: p, Sort: d.sort}
	})
}

// search answers /api/search: the packages, servers and organizations
// whose identifier or name holds the query, trimmed, case-insensitively, in
// default order, at most searchLimit of each. An empty query matches
// nothing.
func (s *snapshot) search(query string) searchJSON {
	q := strings.ToLower(strings.TrimSpace(query))
	return searchJSON{
		Query:         query,
		Packages:      matching(s.pkgs, q, func(p *pkg) (string, string) { return p.ident, p.title }, (*pkg).entry),
		Servers:       matching(s.srvs, q, func(v *srv) (string, string) { return v.id, v.name }, (*srv).entry),
		Organizations: matching(s.orgs, q, func(o *org) (string, string) { return o.ident, o.name }, (*org).entry),
	}
}

// analyticsSearch answers /api/analytics/packages: the search without
// servers.
func (s *snapshot) analyticsSearch(query string) searchJSON {
	res := s.search(query)
	res.Servers = nil
	return res
}

// matching is the entries of the first searchLimit of xs whose identifier
// or name, lowered, holds q; empty, not nil, when there are none.
func matching[T, J any](xs []T, q string, names func(*T) (string, string), entry func(*T) J) []J {
	out := []J{}
	if q == "" {
		return out
	}
	for i := range xs {
		id, name := names(&xs[i])
		if strings.Contains(strings.ToLower(id), q) || strings.Contains(strings.ToLower(name), q) {
			out = append(out, entry(&xs[i]))
			if len(out) == searchLimit {
				break
			}
		}
	}
	return out
}

func (s *snapshot) findPackage(kind, ident string) *pkg {
	if i, ok := s.pkgIndex[pkgKey{kind, ident}]; ok {
		return &s.pkgs[i]
	}
	return nil
}

func (s *snapshot) findOrg(ident string) *org {
	if i, ok := s.orgIndex[ident]; ok {
		return &s.orgs[i]
	}
	return nil
}

// The records and reports below are nil when there is no such entity.

func (s *snapshot) packageRecord(kind, ident string) *packageJSON {
	if p := s.findPackage(kind, ident); p != nil {
		return ptr(p.record())
	}
	return nil
}

func (s *snapshot) serverRecord(id string) *serverJSON {
	if i, ok := s.srvIndex[id]; ok {
		return ptr(s.srvs[i].record())
	}
	return nil
}

func (s *snapshot) orgRecord(ident string) *organizationRecord {
	if o := s.findOrg(ident); o != nil {
		return ptr(o.record())
	}
	return nil
}

func (s *snapshot) packageAnalytics(kind, ident string) *packageReport {
	if p := s.findPackage(kind, ident); p != nil {
		return ptr(s.packageReport(p))
	}
	return nil
}

func (s *snapshot) orgAnalytics(ident string) *organizationReport {
	if o := s.findOrg(ident); o != nil {
		return ptr(s.orgReport(o))
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
