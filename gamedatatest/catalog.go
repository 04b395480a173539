package gamedatatest

import (
	"encoding/json"
	"net/url"
	"time"
)

// Catalog is the data a Server held when Catalog was called: the ground
// truth a test compares a client's results with. Entries and
// OrganizationEntries give the directories typed, each entry with its JSON
// as served. The fields and the other methods give entries and bodies as
// encoding/json decodes them into an any (string, float64, bool, nil,
// []any, map[string]any), equal to what the wire carries, for comparing
// with decoded JSON. A Catalog is a copy; changing it does not change the
// server.
type Catalog struct {
	// Now is the twin's clock: 2026-11-20T10:00:00Z moved on by
	// Server.Advance. Every history ends there: the current activity point
	// is the last step of its range at or before Now (Now itself unless
	// Advance moved by a fraction of a step).
	Now time.Time
	// Packages are the dashboard entries of every package, in the
	// dashboard's default order (ident, then kind), as served with no kind.
	Packages []map[string]any
	// Servers are the dashboard entries of every dedicated server (kind
	// server), in default order (id).
	Servers []map[string]any
	// Organizations are the entries of /api/organizations, in default
	// order (ident).
	Organizations []map[string]any

	snap *snapshot
}

func newCatalog(s *snapshot) *Catalog {
	c := &Catalog{Now: s.now, snap: s}
	c.Packages = c.Directory("")
	c.Servers = c.Directory("server")
	for i := range s.orgs {
		c.Organizations = append(c.Organizations, s.orgs[i].entry())
	}
	return c
}

// Directory returns every entry /api/dashboard?kind=kind serves across all
// its pages, in default order. kind "" (or one the dashboard does not know)
// means every package; "server" means dedicated servers.
func (c *Catalog) Directory(kind string) []map[string]any {
	return c.DirectoryQuery(url.Values{"kind": {kind}})
}

// DirectoryQuery returns every entry /api/dashboard serves for query across
// all its pages, in order, with kind, sort and filter applied as the
// endpoint applies them; page and pageSize are ignored.
func (c *Catalog) DirectoryQuery(query url.Values) []map[string]any {
	rows := c.snap.dashboardRows(parseDirQuery(query, dashboardSorts, dashboardFilter, true))
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out
}

// OrganizationsQuery returns every entry /api/organizations serves for
// query across all its pages, in order; page and pageSize are ignored.
func (c *Catalog) OrganizationsQuery(query url.Values) []map[string]any {
	rows := c.snap.orgRows(parseDirQuery(query, orgSorts, orgFilter, false))
	out := make([]map[string]any, len(rows))
	for i, o := range rows {
		out[i] = o.entry()
	}
	return out
}

// Package returns the body of /api/packages/{kind}/{ident}, or nil when
// there is no such package.
func (c *Catalog) Package(kind, ident string) map[string]any {
	return roundTrip(c.snap.packageRecord(kind, ident))
}

// Server returns the body of /api/servers/{id}, or nil.
func (c *Catalog) Server(id string) map[string]any { return roundTrip(c.snap.serverRecord(id)) }

// Organization returns the body of /api/organizations/{ident}, or nil.
func (c *Catalog) Organization(ident string) map[string]any {
	return roundTrip(c.snap.orgRecord(ident))
}

// PackageReport returns the body of /api/analytics/packages/{kind}/{ident},
// or nil.
func (c *Catalog) PackageReport(kind, ident string) map[string]any {
	return roundTrip(c.snap.packageAnalytics(kind, ident))
}

// OrganizationReport returns the body of
// /api/analytics/organizations/{ident}, or nil.
func (c *Catalog) OrganizationReport(ident string) map[string]any {
	return roundTrip(c.snap.orgAnalytics(ident))
}

// ActivityHistory returns the body of /api/activity-history?range=rng
// (an unknown range is normalized to 7d).
func (c *Catalog) ActivityHistory(rng string) map[string]any {
	return decode(c.snap.activity(rng))
}

// Search returns the body of /api/search?q=query.
func (c *Catalog) Search(query string) map[string]any { return roundTrip(c.snap.search(query)) }

func roundTrip(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	return decode(encode(v))
}

func decode(b []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic("gamedatatest: decoding own JSON: " + err.Error())
	}
	return m
}
