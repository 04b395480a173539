package gamedata

import (
	"context"
	"errors"
	"iter"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// DashboardEntry is an entry of the dashboard directory: a package, which
// has a kind and an ident, or a dedicated server, which has a canonical id.
// Every other member is in Fields.
type DashboardEntry struct {
	// Kind is the package kind; the service may also send one for a
	// server entry.
	Kind string
	// Ident identifies a package within its kind; empty for a server.
	Ident string
	// ID is a server's canonical id; empty for a package.
	ID string
	// Fields holds every member of the entry as the service sent it.
	Fields
}

// IsServer reports whether the entry is a dedicated server, which is read
// with Client.Servers.Get(ctx, e.ID); a package is read with
// Client.Packages.Get(ctx, e.Kind, e.Ident).
func (e DashboardEntry) IsServer() bool { return e.ID != "" }

// PackageRef returns the entry's package identifiers; for a server entry
// it is the zero PackageRef.
func (e DashboardEntry) PackageRef() PackageRef {
	if e.IsServer() {
		return PackageRef{}
	}
	return PackageRef{Kind: e.Kind, Ident: e.Ident}
}

func decodeDashboardEntry(raw []byte) (DashboardEntry, error) {
	f, ids, err := decodeRecord(raw, "kind", "ident", "id")
	if err != nil {
		return DashboardEntry{}, err
	}
	e := DashboardEntry{Kind: ids[0], Ident: ids[1], ID: ids[2], Fields: f}
	if e.ID == "" && (e.Kind == "" || e.Ident == "") {
		return DashboardEntry{}, errors.New("entry has neither kind and ident nor id")
	}
	return e, nil
}

// dashboardIdentity is what tells entries apart, as one string, for a
// map.
func dashboardIdentity(e DashboardEntry) string { return dashboardKey(e).String() }

// dashboardKey is what tells entries apart, in parts: a server's id, or
// a package's kind and ident.
func dashboardKey(e DashboardEntry) identity {
	switch {
	case e.ID != "":
		return identity{"server:", e.ID}
	case e.Kind == "" || e.Ident == "":
		return identity{}
	}
	return identity{e.Kind, "/", e.Ident}
}

// UnmarshalJSON decodes an entry, keeping every member; null leaves e as
// it is.
func (e *DashboardEntry) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, decodeDashboardEntry, e)
}

// MarshalJSON writes the entry as the service sent it, with its
// identifiers set in it when it did not hold them (they were changed); an
// entry built in Go is written from the identifiers that are not empty,
// and the zero entry as null.
func (e DashboardEntry) MarshalJSON() ([]byte, error) {
	return marshalRecord(e.Fields, "kind", e.Kind, "ident", e.Ident, "id", e.ID)
}

// DashboardOptions selects a page of the dashboard directory.
type DashboardOptions struct {
	// Kind selects packages of one kind, or dedicated servers; KindGame is
	// a documented value. Empty leaves it to the service.
	Kind string `url:"kind,omitempty"`
	ListOptions
}

// DashboardService lists public packages and dedicated servers. Use it
// through Client.Dashboard.
type DashboardService service

// dashboard is the directory of packages and dedicated servers.
var dashboard = directory[DashboardEntry]{
	endpoint: manifest.Dashboard,
	item:     decodeDashboardEntry,
}

// List reads one page of the dashboard (GET /api/dashboard). A page the
// service redirects, because it is out of range, is ErrPageOutOfRange:
// another page's items are never returned.
func (s *DashboardService) List(ctx context.Context, opts *DashboardOptions, callOpts ...CallOption) (*Page[DashboardEntry], error) {
	o := valueOf(opts)
	return list(ctx, (*service)(s), callOpts, dashboard, o.ListOptions, o.with)
}

// All walks the dashboard from opts.Page (0 means 1), following
// pagination.hasNext, and yields every entry once, in order; walk bounds
// the walk and receives its counts (nil means the defaults). It stops at
// the first error, yielded as a *PageError whose Page lets a later walk
// resume there. A directory that does not end where it said it would, or
// that runs past walk.MaxItems, ends the walk with ErrWalkUnbounded.
// Breaking out of the loop stops all fetching.
func (s *DashboardService) All(ctx context.Context, opts *DashboardOptions, walk *WalkOptions, callOpts ...CallOption) iter.Seq2[DashboardEntry, error] {
	o := valueOf(opts)
	return all(ctx, (*service)(s), callOpts, dashboard, o.ListOptions, valueOf(walk), dashboardKey, o.with)
}

// with is o with the page lo selects: the query of one of its pages.
func (o DashboardOptions) with(lo ListOptions) any {
	o.ListOptions = lo
	return o
}
