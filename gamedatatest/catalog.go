package gamedatatest

import (
	"encoding/json"
	"net/url"
	"time"
)

// Catalog is the data a Server held when Catalog was called: the ground
// truth a test compares a client's results with. Directory entries are
// typed (Entry, OrganizationEntry), each with its JSON as served. The
// record, report, history and search bodies, whose shape the service does
// not document, are the bytes the twin serves for them. A Catalog is a
// copy; changing it does not change the server.
type Catalog struct {
	// Now is the twin's clock: 2026-11-20T10:00:00Z moved on by
	// Server.Advance. Every history ends there: the current activity point
	// is the last step of its range at or before Now (Now itself unless
	// Advance moved by a fraction of a step).
	Now time.Time
	// Packages are the dashboard entries of every package, in the
	// dashboard's default order (ident, then kind), as served with no kind.
	Packages []Entry
	// Servers are the dashboard entries of every dedicated server (kind
	// server), in default order (id).
	Servers []Entry
	// Organizations are the entries of /api/organizations, in default
	// order (ident).
	Organizations []OrganizationEntry

	snap *snapshot
}

func newCatalog(s *snapshot) *Catalog {
	c := &Catalog{Now: s.now, snap: s}
	c.Packages = c.Entries(nil)
	c.Servers = c.Entries(url.Values{"kind": {"server"}})
	c.Organizations = c.OrganizationEntries(nil)
	return c
}

// The bodies below are byte for byte what the twin serves with status 200,
// final newline included; nil where the twin answers 404.

// Package returns the body of /api/packages/{kind}/{ident}, or nil when
// there is no such package.
func (c *Catalog) Package(kind, ident string) json.RawMessage {
	return body(c.snap.packageRecord(kind, ident))
}

// Server returns the body of /api/servers/{id}, or nil.
func (c *Catalog) Server(id string) json.RawMessage { return body(c.snap.serverRecord(id)) }

// Organization returns the body of /api/organizations/{ident}, or nil.
func (c *Catalog) Organization(ident string) json.RawMessage {
	return body(c.snap.orgRecord(ident))
}

// PackageReport returns the body of /api/analytics/packages/{kind}/{ident},
// or nil.
func (c *Catalog) PackageReport(kind, ident string) json.RawMessage {
	return body(c.snap.packageAnalytics(kind, ident))
}

// OrganizationReport returns the body of
// /api/analytics/organizations/{ident}, or nil.
func (c *Catalog) OrganizationReport(ident string) json.RawMessage {
	return body(c.snap.orgAnalytics(ident))
}

// ActivityHistory returns the body of /api/activity-history?range=rng
// (an unknown range is normalized to 7d).
func (c *Catalog) ActivityHistory(rng string) json.RawMessage { return c.snap.activity(rng) }

// Search returns the body of /api/search?q=query.
func (c *Catalog) Search(query string) json.RawMessage { return encode(c.snap.search(query)) }

// body is v as the twin serves it, or nil for no record.
func body[T any](v *T) json.RawMessage {
	if v == nil {
		return nil
	}
	return encode(v)
}
