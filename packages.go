package gamedata

import (
	"cmp"
	"context"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// KindGame is the package kind of games, a documented value of the
// dashboard's kind parameter.
const KindGame = "game"

// Package is a public package, a game among other kinds. The service
// documents only its identifiers; every other member is in Fields, for
// example Fields.Text("title") or Fields.Metric("players").
type Package struct {
	// Kind is the package kind, such as KindGame.
	Kind string
	// Ident identifies the package within its kind.
	Ident string
	// Fields holds every member of the record as the service sent it.
	Fields
}

func decodePackage(raw []byte) (Package, error) {
	f, ids, err := decodeRecord(raw, "kind", "ident")
	if err != nil {
		return Package{}, err
	}
	return Package{Kind: ids[0], Ident: ids[1], Fields: f}, nil
}

func packageIdentity(p Package) string { return joinIdent(p.Kind, p.Ident) }

// packageItem decodes a package inside a list, where it must identify
// itself.
var packageItem = listed(decodePackage, packageIdentity, "package")

// UnmarshalJSON decodes a package record, keeping every member; null
// leaves p as it is.
func (p *Package) UnmarshalJSON(b []byte) error { return unmarshalRecord(b, decodePackage, p) }

// MarshalJSON writes the record as the service sent it, with Kind and
// Ident set in it when it did not hold them (they were filled in from the
// request, or changed); a Package built in Go is written from Kind and
// Ident, and the zero Package as null.
func (p Package) MarshalJSON() ([]byte, error) {
	return marshalRecord(p.Fields, "kind", p.Kind, "ident", p.Ident)
}

// PackagesService reads packages. Use it through Client.Packages.
type PackagesService service

// Get reads one public package (GET /api/packages/{kind}/{ident}). kind and
// ident are as obtained from the dashboard or from search. A package the
// service does not know is an *APIError that matches ErrNotFound. When the
// record leaves out its kind or ident, those asked for are filled in.
func (s *PackagesService) Get(ctx context.Context, kind, ident string, opts ...CallOption) (*Package, error) {
	c, cfg, err := (*service)(s).resolve(ctx, opts)
	if err != nil {
		return nil, err
	}
	return getPackage(ctx, c, cfg, kind, ident)
}

// getPackage is Get with its options resolved: GetMany and Watch call it
// for each package.
func getPackage(ctx context.Context, c *Client, cfg callConfig, kind, ident string) (*Package, error) {
	if err := checkSegments([]string{"package kind", "package ident"}, kind, ident); err != nil {
		return nil, err
	}
	p, err := getRecord(ctx, c, cfg, manifest.Package, "package record", decodePackage, kind, ident)
	if err != nil {
		return nil, err
	}
	p.Kind, p.Ident = cmp.Or(p.Kind, kind), cmp.Or(p.Ident, ident)
	return &p, nil
}

// PackageRef identifies a package: what Client.Packages.Get and GetMany
// need.
type PackageRef struct {
	Kind, Ident string
}
