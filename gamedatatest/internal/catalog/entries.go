package catalog

import (
	"encoding/json"
	"net/url"
	"time"
)

// Entry is one entry of /api/dashboard, typed, with its JSON as served.
type Entry struct {
	Kind         string // game, mod, tool or server
	Ident        string // a package's ident; "" for a server
	ID           string // a server's canonical id; "" for a package
	Name         string // a package's title or a server's name
	Organization string // "" when none or unknown
	Players      *float64
	Online       bool
	Updated      time.Time // a package's updatedAt or a server's lastSeen
	JSON         json.RawMessage
}

// OrganizationEntry is one entry of /api/organizations, typed, with its
// JSON as served.
type OrganizationEntry struct {
	Ident, Name, Description string
	Website                  string // "" when null
	Packages                 int
	Verified                 bool
	JSON                     json.RawMessage
}

// Entries is every entry /api/dashboard serves for query across all its
// pages, in order; page and pageSize are ignored.
func (s *Snapshot) Entries(query url.Values) []Entry {
	return each(s.dashboardRows(parseDirQuery(query, dashboardSorts, dashboardFilter, true)), row.typed)
}

// OrganizationEntries is every entry /api/organizations serves for query
// across all its pages, in order; page and pageSize are ignored.
func (s *Snapshot) OrganizationEntries(query url.Values) []OrganizationEntry {
	return each(s.orgRows(parseDirQuery(query, orgSorts, orgFilter, false)), (*org).typed)
}

func (o *org) typed() OrganizationEntry {
	return OrganizationEntry{Ident: o.ident, Name: o.name, Description: o.description, Website: o.website,
		Packages: len(o.packages), Verified: o.verified, JSON: trimmed(Encode(o.entry()))}
}

func (r row) typed() Entry {
	raw := trimmed(Encode(r.entry()))
	if p := r.p; p != nil {
		return Entry{Kind: p.kind, Ident: p.ident, Name: p.title, Organization: p.org,
			Players: p.players.json(), Online: p.online, Updated: p.updatedAt, JSON: raw}
	}
	v := r.s
	return Entry{Kind: "server", ID: v.id, Name: v.name, Organization: v.org,
		Players: v.players.json(), Online: v.online, Updated: v.lastSeen, JSON: raw}
}

// trimmed drops the newline encode ends with.
func trimmed(b []byte) json.RawMessage { return b[:len(b)-1] }

// AwkwardIdents are the idents of the packages Config.Awkward adds.
func AwkwardIdents() []string { return append([]string(nil), awkwardIdents...) }
