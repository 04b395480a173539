package gamedata

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// SearchOptions is a search query.
type SearchOptions struct {
	// Query is the search text, sent as q; empty sends no q, and the
	// service decides what an empty search returns.
	Query string `url:"q,omitempty"`
	// Params carries query parameters the service takes but does not
	// document. It may not repeat q.
	Params url.Values `url:"-"`
}

// SearchResults are the packages, servers and organizations that match a
// search. Each list is read from the member of the same name
// ("packages", "servers", "organizations"); a list the service leaves out
// is nil.
type SearchResults struct {
	Packages      []Package
	Servers       []Server
	Organizations []Organization
	// Fields holds the whole response as the service sent it.
	Fields
}

// Search searches packages, servers and organizations (GET /api/search).
// A nil opts, or an empty Query, sends no q.
func (c *Client) Search(ctx context.Context, opts *SearchOptions, callOpts ...CallOption) (*SearchResults, error) {
	return (&service{client: c}).search(ctx, callOpts, opts, true, manifest.Search)
}

// search reads the search results at endpoint e: the lists "packages",
// "organizations" and, with servers, "servers", each optional. Without
// servers, a "servers" member is left in Fields undecoded, as any member
// the endpoint does not document.
func (s *service) search(ctx context.Context, callOpts []CallOption, opts *SearchOptions, servers bool, e manifest.Endpoint) (*SearchResults, error) {
	o := valueOf(opts)
	q, err := encodeQuery(o, o.Params)
	if err != nil {
		return nil, err
	}
	var r SearchResults
	err = s.get(ctx, callOpts, e, q, func(b []byte) (err error) {
		r, err = decodeSearchResults(b, servers)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// decodeSearchResults decodes search results: the lists "packages",
// "organizations" and, with servers, "servers", each optional.
func decodeSearchResults(b []byte, servers bool) (r SearchResults, err error) {
	var members map[string]json.RawMessage
	if r.Fields, members, err = decodeFields(b); err != nil {
		return SearchResults{}, err
	}
	if r.Packages, err = decodeList(members, "packages", packageItem); err != nil {
		return SearchResults{}, err
	}
	if servers {
		if r.Servers, err = decodeList(members, "servers", serverItem); err != nil {
			return SearchResults{}, err
		}
	}
	if r.Organizations, err = decodeList(members, "organizations", organizationItem); err != nil {
		return SearchResults{}, err
	}
	return r, nil
}
