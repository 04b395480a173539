package gamedatatest

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
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

// encode is JSON without HTML escaping, one line.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only generated values reach here; a failure is a bug in the twin.
		panic("gamedatatest: encoding a response: " + err.Error())
	}
	return b.Bytes()
}

func jsonReply(status int, v any) reply { return reply{status: status, body: encode(v)} }

func errorReply(status int, msg string) reply {
	return jsonReply(status, map[string]any{"error": msg})
}

var notFound = errorReply(http.StatusNotFound, "not found")

// segments splits an escaped path on "/" and unescapes each segment, so an
// encoded "/" stays inside its segment. ok is false for a bad escape.
func segments(escapedPath string) ([]string, bool) {
	parts := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	for i, p := range parts {
		u, err := url.PathUnescape(p)
		if err != nil {
			return nil, false
		}
		parts[i] = u
	}
	return parts, true
}

// endpoint is one path pattern under /api/: fixed leading segments, then
// as many argument segments as the pattern is long.
type endpoint struct {
	family Family
	prefix []string
	args   int
	serve  func(s *snapshot, r *http.Request, args []string) reply
}

var endpoints = []endpoint{
	{FamilyDashboard, []string{"dashboard"}, 0, func(s *snapshot, r *http.Request, _ []string) reply {
		return s.dashboard(r, r.URL.Query())
	}},
	{FamilyOrganizations, []string{"organizations"}, 0, func(s *snapshot, r *http.Request, _ []string) reply {
		return s.organizations(r, r.URL.Query())
	}},
	{FamilySearch, []string{"search"}, 0, func(s *snapshot, r *http.Request, _ []string) reply {
		return jsonReply(http.StatusOK, s.search(r.URL.Query().Get("q")))
	}},
	{FamilyActivity, []string{"activity-history"}, 0, func(s *snapshot, r *http.Request, _ []string) reply {
		return reply{status: http.StatusOK, body: s.activity(r.URL.Query().Get("range"))}
	}},
	{FamilyPackage, []string{"packages"}, 2, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.packageRecord(a[0], a[1]))
	}},
	{FamilyServer, []string{"servers"}, 1, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.serverRecord(a[0]))
	}},
	{FamilyOrganization, []string{"organizations"}, 1, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.orgRecord(a[0]))
	}},
	{FamilyAnalyticsSearch, []string{"analytics", "packages"}, 0, func(s *snapshot, r *http.Request, _ []string) reply {
		return jsonReply(http.StatusOK, s.analyticsSearch(r.URL.Query().Get("q")))
	}},
	{FamilyAnalyticsPackage, []string{"analytics", "packages"}, 2, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.packageAnalytics(a[0], a[1]))
	}},
	{FamilyAnalyticsOrganization, []string{"analytics", "organizations"}, 1, func(s *snapshot, _ *http.Request, a []string) reply {
		return found(s.orgAnalytics(a[0]))
	}},
}

// route answers a GET. A dashboard request is counted for ReorderEvery
// before it reads the catalogue, so a shift it causes applies to it.
func (h *handler) route(r *http.Request) reply {
	seg, ok := segments(r.URL.EscapedPath())
	if !ok || slices.Contains(seg, "") {
		return notFound
	}
	if len(seg) == 1 && seg[0] == "openapi.json" {
		return reply{status: http.StatusOK, body: openAPIDocument, family: FamilyOpenAPI, modified: referenceTime}
	}
	if len(seg) < 2 || seg[0] != "api" {
		return notFound
	}
	seg = seg[1:]
	for _, e := range endpoints {
		if len(seg) != len(e.prefix)+e.args || !slices.Equal(seg[:len(e.prefix)], e.prefix) {
			continue
		}
		if e.family == FamilyDashboard {
			h.countDirectoryRequest()
		}
		s := h.snap.Load()
		rep := e.serve(s, r, seg[len(e.prefix):])
		rep.family, rep.modified = e.family, s.modified
		return rep
	}
	return notFound
}

func found(v map[string]any) reply {
	if v == nil {
		return notFound
	}
	return jsonReply(http.StatusOK, v)
}

func (s *snapshot) dashboard(r *http.Request, q url.Values) reply {
	d := parseDirQuery(q, dashboardSorts, dashboardFilter, true)
	rows := s.dashboardRows(d)
	return page(r, d, len(rows), func(lo, hi int) []any {
		items := make([]any, 0, hi-lo)
		for _, row := range rows[lo:hi] {
			items = append(items, row.entry())
		}
		return items
	}, map[string]any{"kind": nullString(d.kind)})
}

func (s *snapshot) organizations(r *http.Request, q url.Values) reply {
	d := parseDirQuery(q, orgSorts, orgFilter, false)
	rows := s.orgRows(d)
	return page(r, d, len(rows), func(lo, hi int) []any {
		items := make([]any, 0, hi-lo)
		for _, o := range rows[lo:hi] {
			items = append(items, o.entry())
		}
		return items
	}, nil)
}

func matches(q string, fields ...string) bool {
	for _, f := range fields {
		if strings.Contains(strings.ToLower(f), q) {
			return true
		}
	}
	return false
}

// searchPackages, searchServers and searchOrgs match q case-insensitively
// as a substring of identifiers and names, in default order, at most
// searchLimit each. An empty query matches nothing.
func (s *snapshot) searchPackages(q string) []any {
	out := []any{}
	for i := range s.pkgs {
		if p := &s.pkgs[i]; q != "" && len(out) < searchLimit && matches(q, p.ident, p.title) {
			out = append(out, p.entry())
		}
	}
	return out
}

func (s *snapshot) searchServers(q string) []any {
	out := []any{}
	for i := range s.srvs {
		if v := &s.srvs[i]; q != "" && len(out) < searchLimit && matches(q, v.id, v.name) {
			out = append(out, v.entry())
		}
	}
	return out
}

func (s *snapshot) searchOrgs(q string) []any {
	out := []any{}
	for i := range s.orgs {
		if o := &s.orgs[i]; q != "" && len(out) < searchLimit && matches(q, o.ident, o.name) {
			out = append(out, o.entry())
		}
	}
	return out
}

func (s *snapshot) search(query string) map[string]any {
	q := strings.ToLower(strings.TrimSpace(query))
	return map[string]any{
		"query":         query,
		"packages":      s.searchPackages(q),
		"servers":       s.searchServers(q),
		"organizations": s.searchOrgs(q),
	}
}

func (s *snapshot) analyticsSearch(query string) map[string]any {
	q := strings.ToLower(strings.TrimSpace(query))
	return map[string]any{
		"query":         query,
		"packages":      s.searchPackages(q),
		"organizations": s.searchOrgs(q),
	}
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

func (s *snapshot) packageRecord(kind, ident string) map[string]any {
	if p := s.findPackage(kind, ident); p != nil {
		return p.record()
	}
	return nil
}

func (s *snapshot) serverRecord(id string) map[string]any {
	if i, ok := s.srvIndex[id]; ok {
		return s.srvs[i].record()
	}
	return nil
}

func (s *snapshot) orgRecord(ident string) map[string]any {
	if o := s.findOrg(ident); o != nil {
		return o.record()
	}
	return nil
}

func (s *snapshot) packageAnalytics(kind, ident string) map[string]any {
	if p := s.findPackage(kind, ident); p != nil {
		return s.packageReport(p)
	}
	return nil
}

func (s *snapshot) orgAnalytics(ident string) map[string]any {
	if o := s.findOrg(ident); o != nil {
		return s.orgReport(o)
	}
	return nil
}
