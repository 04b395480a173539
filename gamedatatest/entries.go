package gamedatatest

import (
	"encoding/json"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

// Metric is a number the service may send as null ("unavailable", never
// zero).
type Metric struct {
	Value float64
	Valid bool // false for null
}

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

// entryOf is e as the public type.
func entryOf(e catalog.Entry) Entry {
	return Entry{Kind: e.Kind, Ident: e.Ident, ID: e.ID, Name: e.Name, Organization: e.Organization,
		Players: metricOf(e.Players), Online: e.Online, Updated: e.Updated, raw: e.JSON}
}

// organizationEntryOf is o as the public type.
func organizationEntryOf(o catalog.OrganizationEntry) OrganizationEntry {
	return OrganizationEntry{Ident: o.Ident, Name: o.Name, Description: o.Description, Website: o.Website,
		Packages: o.Packages, Verified: o.Verified, raw: o.JSON}
}

// metricOf is a member of the wire as a Metric: nil for null.
func metricOf(v *float64) Metric {
	if v == nil {
		return Metric{}
	}
	return Metric{Value: *v, Valid: true}
}
