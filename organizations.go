package gamedata

import (
	"cmp"
	"context"
	"iter"
	"net/url"
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

// UnmarshalJSON decodes an organization record, keeping every member.
func (o *Organization) UnmarshalJSON(b []byte) error {
	return unmarshalRecord(b, decodeOrganization, o)
}

// MarshalJSON writes the record as the service sent it; an Organization
// built in Go is written from Ident.
func (o Organization) MarshalJSON() ([]byte, error) {
	return marshalRecord(o.Fields, func() map[string]any { return map[string]any{"ident": o.Ident} })
}

// ListOptions selects a page of the organization directory.
type ListOptions struct {
	// Sort orders the directory. The service does not name its sort
	// parameter; the client sends it as "sort", the name the service's
	// public web pages use. An unsupported sort is normalized by the
	// service to the directory default, not refused.
	Sort string `url:"sort,omitempty"`
	// Page is the one-based page; 0 means 1. It is always sent.
	Page int `url:"page"`
	// PageSize is the number of entries a page, at most 100; 0 leaves it to
	// the service.
	PageSize int `url:"pageSize,omitempty"`
	// Filters are sent as repeated filter parameters, which the service
	// combines. An unsupported filter is normalized to the default.
	Filters []string `url:"filter,omitempty"`
	// Params carries query parameters the service takes but does not
	// document. It may not repeat a parameter that a field above sends.
	Params url.Values `url:"-"`
	// Stats, when set, receives the counts of a walk by All.
	Stats *WalkStats `url:"-"`
}

// OrganizationsService reads and lists organizations. Use it through
// Client.Organizations.
type OrganizationsService service

// Get reads one organization (GET /api/organizations/{ident}). An
// organization the service does not know is an *APIError that matches
// ErrNotFound.
func (s *OrganizationsService) Get(ctx context.Context, ident string) (*Organization, error) {
	if err := checkSegments([]string{"organization ident"}, ident); err != nil {
		return nil, err
	}
	o, err := getRecord(ctx, (*service)(s), "organization record", decodeOrganization, "api", "organizations", ident)
	if err != nil {
		return nil, err
	}
	o.Ident = cmp.Or(o.Ident, ident)
	return &o, nil
}

// List reads one page of the organization directory (GET
// /api/organizations). A page the service redirects, because it is out of
// range, is ErrPageOutOfRange: another page's items are never returned.
func (s *OrganizationsService) List(ctx context.Context, opts *ListOptions) (*Page[Organization], error) {
	o := valueOf(opts)
	return listPage(ctx, (*service)(s), o.Page, o.PageSize, func(page int) (url.Values, error) {
		o.Page = page
		return encodeQuery(o, o.Params)
	}, organizationItem, "api", "organizations")
}

// All walks the organization directory from opts.Page (0 means 1),
// following pagination.hasNext, and yields every organization once, in
// order. It stops at the first error, yielded as a *PageError whose Page
// lets a later walk resume there. Breaking out of the loop stops all
// fetching.
func (s *OrganizationsService) All(ctx context.Context, opts *ListOptions) iter.Seq2[Organization, error] {
	o := valueOf(opts)
	return walk(ctx, o.Page, (*service)(s).prefetch(), o.Stats, func(ctx context.Context, page int) (*Page[Organization], error) {
		p := o
		p.Page = page
		return s.List(ctx, &p)
	}, organizationIdentity)
}
