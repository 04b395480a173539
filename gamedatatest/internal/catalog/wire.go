package catalog

import (
	"bytes"
	"encoding/json"
)

// The wire format: the body of every answer of the twin but its errors and
// redirects, as Go types.
//
// Members are declared in the order the twin writes them, sorted by name
// (the order encoding/json gave the maps the bodies were first built
// from); an ETag is derived from the bytes, so a change of order changes
// every ETag. A pointer member without omitempty is null when nil: a
// metric that is unavailable, an organization that is unknown. A member
// with omitempty or omitzero is absent when nil: a record's members that
// its directory entry does not carry. Times are RFC 3339 in UTC, to the
// second; counts are integers, players float64.

// dashboardPage is the body of /api/dashboard.
type dashboardPage struct {
	Filters    []string       `json:"filters"` // the filters applied, never null
	Items      []any          `json:"items"`   // packageJSON entries, or serverJSON entries for kind server
	Kind       *string        `json:"kind"`    // the kind applied; null for every package
	Pagination paginationJSON `json:"pagination"`
	Sort       string         `json:"sort"` // the sort applied
}

// organizationPage is the body of /api/organizations.
type organizationPage struct {
	Filters    []string           `json:"filters"`
	Items      []organizationJSON `json:"items"`
	Pagination paginationJSON     `json:"pagination"`
	Sort       string             `json:"sort"`
}

// paginationJSON is the pagination of a directory page.
type paginationJSON struct {
	HasNext    bool `json:"hasNext"`
	Page       int  `json:"page"` // one-based; 1 for an empty directory
	PageSize   int  `json:"pageSize"`
	Total      int  `json:"total"` // entries
	TotalPages int  `json:"totalPages"`
}

// packageJSON is a package: its dashboard entry, and with the members
// marked record its record, /api/packages/{kind}/{ident}.
type packageJSON struct {
	CreatedAt    *string  `json:"createdAt,omitempty"`   // record
	Description  *string  `json:"description,omitempty"` // record
	Ident        string   `json:"ident"`
	Kind         string   `json:"kind"`
	Online       bool     `json:"online"`
	Organization *string  `json:"organization"` // null when none or unknown
	Players      *float64 `json:"players"`
	PlayersPeak  *float64 `json:"playersPeak"`
	Rating       *float64 `json:"rating"`
	Servers      int      `json:"servers"`
	Tags         []string `json:"tags,omitzero"` // record
	Title        string   `json:"title"`
	UpdateNotes  *string  `json:"updateNotes,omitempty"` // record
	UpdatedAt    string   `json:"updatedAt"`
}

// serverJSON is a dedicated server: its dashboard entry, and with the
// members marked record and without kind its record, /api/servers/{id}.
type serverJSON struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind,omitempty"` // "server"; absent from the record
	LastSeen   string   `json:"lastSeen"`
	Map        string   `json:"map"`
	MaxPlayers int      `json:"maxPlayers"`
	Name       string   `json:"name"`
	Online     bool     `json:"online"`
	Package    *refJSON `json:"package"` // the package it runs; null when unknown
	Players    *float64 `json:"players"`
	Region     *string  `json:"region,omitempty"`  // record
	Version    *string  `json:"version,omitempty"` // record
}

// refJSON names a package.
type refJSON struct {
	Ident string `json:"ident"`
	Kind  string `json:"kind"`
}

// organizationJSON is an entry of /api/organizations and of a search.
type organizationJSON struct {
	Description string  `json:"description"`
	Ident       string  `json:"ident"`
	Name        string  `json:"name"`
	Packages    int     `json:"packages"` // how many it publishes
	Verified    bool    `json:"verified"`
	Website     *string `json:"website"` // null when it has none
}

// organizationRecord is the body of /api/organizations/{ident}.
type organizationRecord struct {
	CreatedAt   string    `json:"createdAt"`
	Description string    `json:"description"`
	Ident       string    `json:"ident"`
	Name        string    `json:"name"`
	Packages    []refJSON `json:"packages"` // what it publishes, in default order
	Verified    bool      `json:"verified"`
	Website     *string   `json:"website"`
}

// searchJSON is the body of /api/search and, without servers, of
// /api/analytics/packages. Each list holds at most searchLimit entries and
// is empty, never null, when nothing matches.
type searchJSON struct {
	Organizations []organizationJSON `json:"organizations"`
	Packages      []packageJSON      `json:"packages"`
	Query         string             `json:"query"` // as asked, untrimmed
	Servers       []serverJSON       `json:"servers,omitzero"`
}

// packageReport is the body of /api/analytics/packages/{kind}/{ident}.
type packageReport struct {
	History      []historyJSON `json:"history"` // one entry a day, oldest first
	Ident        string        `json:"ident"`
	Kind         string        `json:"kind"`
	Organization *string       `json:"organization"`
	Summary      summaryJSON   `json:"summary"`
	Title        string        `json:"title"`
}

// organizationReport is the body of /api/analytics/organizations/{ident}.
type organizationReport struct {
	History  []historyJSON `json:"history"`
	Ident    string        `json:"ident"`
	Name     string        `json:"name"`
	Packages int           `json:"packages"`
	Summary  summaryJSON   `json:"summary"`
}

// historyJSON is an entry of an analytics history.
type historyJSON struct {
	CapturedAt      string   `json:"capturedAt"` // ISO 8601 in one of capturedAtForms
	PartialCoverage bool     `json:"partialCoverage"`
	Players         *float64 `json:"players"`     // the day's average
	PlayersPeak     *float64 `json:"playersPeak"` // the day's peak
}

// summaryJSON sums up a history over each range that ends now, keyed by
// range: 24h, 7d, 30d and 90d.
type summaryJSON map[string]rangeSummaryJSON

// rangeSummaryJSON sums up the history entries of one range.
type rangeSummaryJSON struct {
	Average         *float64 `json:"average"`
	PartialCoverage bool     `json:"partialCoverage"`
	Peak            *float64 `json:"peak"`
}

// Encode is v as the twin writes every body: JSON without HTML escaping
// (a Location holds &), on one line ending in a newline.
func Encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only generated values reach here; a failure is a bug in the twin.
		panic("gamedatatest: encoding a response: " + err.Error())
	}
	return b.Bytes()
}

// nullString is s, or null when s is empty.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// json is m as a member: null when unavailable. It points into m.
func (m *metric) json() *float64 {
	if !m.ok {
		return nil
	}
	return &m.v
}
