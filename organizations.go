package gamedata

import (
	"cmp"
	"context"
	"iter"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Organization is an organization that publishes games. The service
// documents only its ident; every other member is in Fields.
type Organization struct {
	// Ident identifies the organization.
	Ident string
	// Fields holds every member of the record as the service sent it.
	Fields
}

func decodeOrganization(raw []byte) (Organization, error) {
	f, ids, err := decodeRecord(raw, "ident")
	if err != nil {
		return Organization{}, err
	}
	return Organization{Ident: ids[0], Fields: f}, nil
}

func organizationIdentity(o Organization) string { return o.Ident }

// organizationItem decodes an organization inside a list, where it must
// identify itself.
var organizationItem = listed(decodeOrganization, organizationIdentity, "organization")

// UnmarshalJSON decodes an organization record, keeping every member;
// null leaves o as it is.
func (o *Organization) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, decodeOrganization, o)
}

// MarshalJSON writes the record as the service sent it, with Ident set in
// it when it did not hold it (it was filled in from the request, or
// changed); an Organization built in Go is written from Ident, and the
// zero Organization as null.
func (o Organization) MarshalJSON() ([]byte, error) {
	return marshalRecord(o.Fields, "ident", o.Ident)
}

// OrganizationsService reads and lists organizations. Use it through
// Client.Organizations.
type OrganizationsService service

// Get reads one organization (GET /api/organizations/{ident}). An
// organization the service does not know is an *APIError that matches
// ErrNotFound.
func (s *OrganizationsService) Get(ctx context.Context, ident string, opts ...CallOption) (*Organization, error) {
	if err := checkSegments([]string{"organization ident"}, ident); err != nil {
		return nil, err
	}
	c, cfg, err := (*service)(s).resolve(ctx, opts)
	if err != nil {
		return nil, err
	}
	o, err := getRecord(ctx, c, cfg, manifest.Organization, "organization record", decodeOrganization, ident)
	if err != nil {
		return nil, err
	}
	o.Ident = cmp.Or(o.Ident, ident)
	return &o, nil
}

// organizations is the directory of organizations.
var organizations = directory[Organization]{
	endpoint: manifest.Organizations,
	item:     organizationItem,
}

// List reads one page of the organization directory (GET
// /api/organizations). A page the service redirects, because it is out of
// range, is ErrPageOutOfRange: another page's items are never returned.
func (s *OrganizationsService) List(ctx context.Context, opts *ListOptions, callOpts ...CallOption) (*Page[Organization], error) {
	return list(ctx, (*service)(s), callOpts, organizations, valueOf(opts), pageQuery)
}

// All walks the organization directory from opts.Page (0 means 1),
// following pagination.hasNext, and yields every organization once, in
// order; walk bounds the walk and receives its counts (nil means the
// defaults). It stops at the first error, yielded as a *PageError whose
// Page lets a later walk resume there. A directory that does not end
// where it said it would, or that runs past walk.MaxItems, ends the walk
// with ErrWalkUnbounded. Breaking out of the loop stops all fetching.
func (s *OrganizationsService) All(ctx context.Context, opts *ListOptions, walk *WalkOptions, callOpts ...CallOption) iter.Seq2[Organization, error] {
	return all(ctx, (*service)(s), callOpts, organizations, valueOf(opts), valueOf(walk), func(o Organization) identity { return identity{o.Ident} }, pageQuery)
}

// pageQuery is the query of a page of the organization directory, which
// takes no options but a page's.
func pageQuery(lo ListOptions) any { return lo }
