package gamedatatest

import (
	"encoding/json"
	"net/url"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
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

	snap *catalog.Snapshot
}

func newCatalog(s *catalog.Snapshot) *Catalog {
	c := &Catalog{Now: s.Now(), snap: s}
	c.Packages = c.Entries(nil)
	c.Servers = c.Entries(url.Values{"kind": {"server"}})
	c.Organizations = c.OrganizationEntries(nil)
	return c
}

// Entries returns every entry /api/dashboard serves for query across all
// its pages, in order, with kind, sort and filter applied as the endpoint
// applies them; page and pageSize are ignored. A nil or empty query gives
// every package in default order (Packages); {"kind": {"server"}} gives the
// dedicated servers (Servers).
func (c *Catalog) Entries(query url.Values) []Entry {
	entries := c.snap.Entries(query)
	out := make([]Entry, len(entries))
	for i, e := range entries {
		out[i] = entryOf(e)
	}
	return out
}

// OrganizationEntries returns every entry /api/organizations serves for
// query across all its pages, in order, with sort and filter applied as the
// endpoint applies them; page and pageSize are ignored.
func (c *Catalog) OrganizationEntries(query url.Values) []OrganizationEntry {
	entries := c.snap.OrganizationEntries(query)
	out := make([]OrganizationEntry, len(entries))
	for i, o := range entries {
		out[i] = organizationEntryOf(o)
	}
	return out
}

// The bodies below are byte for byte what the twin serves with status 200,
// final newline included; nil where the twin answers 404.

// Package returns the body of /api/packages/{kind}/{ident}, or nil when
// there is no such package.
func (c *Catalog) Package(kind, ident string) json.RawMessage { return c.snap.Package(kind, ident) }

// Server returns the body of /api/servers/{id}, or nil.
func (c *Catalog) Server(id string) json.RawMessage { return c.snap.Server(id) }

// Organization returns the body of /api/organizations/{ident}, or nil.
func (c *Catalog) Organization(ident string) json.RawMessage { return c.snap.Organization(ident) }

// PackageReport returns the body of /api/analytics/packages/{kind}/{ident},
// or nil.
func (c *Catalog) PackageReport(kind, ident string) json.RawMessage {
	return c.snap.PackageReport(kind, ident)
}

// OrganizationReport returns the body of
// /api/analytics/organizations/{ident}, or nil.
func (c *Catalog) OrganizationReport(ident string) json.RawMessage {
	return c.snap.OrganizationReport(ident)
}

// ActivityHistory returns the body of /api/activity-history?range=rng
// (an unknown range is normalized to 7d).
func (c *Catalog) ActivityHistory(rng string) json.RawMessage { return c.snap.Activity(rng) }

// Search returns the body of /api/search?q=query.
func (c *Catalog) Search(query string) json.RawMessage { return c.snap.Search(query) }
