package gamedatatest

import (
	"encoding/json"
	"net/url"
	"time"
)

// Metric is a number the service may send as null ("unavailable", never
// zero).
type Metric struct {
	Value float64
	Valid bool // false for null
}

func (m metric) typed() Metric { return Metric{Value: m.v, Valid: m.ok} }

// Entry is one entry of /api/dashboard, typed: a package, or a dedicated
// server when Kind is "server". JSON returns it exactly as served.
type Entry struct {
	Kind  string // game, mod, tool or server
	Ident string // a package's ident; "" for a server
	ID    string // a server's canonical id; "" for a package
	// Name is a package's title or a server's name: publisher text, which
	// may hold terminal escapes and other hostile characters.
	Name string
	// Organization is the ident of the package's or server's organization,
	// "" when it has none or it is unknown.
	Organization string
	Players      Metric
	Online       bool
	// Updated is a package's updatedAt or a server's lastSeen.
	Updated time.Time

	raw json.RawMessage
}

// JSON returns the entry as the twin serves it.
func (e Entry) JSON() json.RawMessage { return e.raw }

// MarshalJSON returns the entry as the twin serves it, so that a typed
// entry and a decoded one encode alike.
func (e Entry) MarshalJSON() ([]byte, error) { return e.raw, nil }

// OrganizationEntry is one entry of /api/organizations, typed. JSON returns
// it exactly as served.
type OrganizationEntry struct {
	Ident string
	// Name and Description are publisher text.
	Name, Description string
	Website           string // "" when null
	Packages          int
	Verified          bool

	raw json.RawMessage
}

// JSON returns the entry as the twin serves it.
func (o OrganizationEntry) JSON() json.RawMessage { return o.raw }

// MarshalJSON returns the entry as the twin serves it.
func (o OrganizationEntry) MarshalJSON() ([]byte, error) { return o.raw, nil }

// Entries returns every entry /api/dashboard serves for query across all
// its pages, in order, with kind, sort and filter applied as the endpoint
// applies them; page and pageSize are ignored. A nil or empty query gives
// every package in default order (Packages); {"kind": {"server"}} gives the
// dedicated servers (Servers).
func (c *Catalog) Entries(query url.Values) []Entry {
	return each(c.snap.dashboardRows(parseDirQuery(query, dashboardSorts, dashboardFilter, true)), row.typed)
}

// OrganizationEntries returns every entry /api/organizations serves for
// query across all its pages, in order, with sort and filter applied as the
// endpoint applies them; page and pageSize are ignored.
func (c *Catalog) OrganizationEntries(query url.Values) []OrganizationEntry {
	return each(c.snap.orgRows(parseDirQuery(query, orgSorts, orgFilter, false)), (*org).typed)
}

func (o *org) typed() OrganizationEntry {
	return OrganizationEntry{Ident: o.ident, Name: o.name, Description: o.description, Website: o.website,
		Packages: len(o.packages), Verified: o.verified, raw: trimmed(encode(o.entry()))}
}

func (r row) typed() Entry {
	raw := trimmed(encode(r.entry()))
	if p := r.p; p != nil {
		return Entry{Kind: p.kind, Ident: p.ident, Name: p.title, Organization: p.org,
			Players: p.players.typed(), Online: p.online, Updated: p.updatedAt, raw: raw}
	}
	v := r.s
	return Entry{Kind: "server", ID: v.id, Name: v.name, Organization: v.org,
		Players: v.players.typed(), Online: v.online, Updated: v.lastSeen, raw: raw}
}

// trimmed drops the newline encode ends with.
func trimmed(b []byte) json.RawMessage { return b[:len(b)-1] }
