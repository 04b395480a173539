package gamedata

import (
	"cmp"
	"context"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Server is a dedicated server. The service documents only its canonical
// id; every other member is in Fields.
type Server struct {
	// ID is the canonical server id, such as "203.0.113.7:27015".
	ID string
	// Fields holds every member of the record as the service sent it.
	Fields
}

func decodeServer(raw []byte) (Server, error) {
	f, ids, err := decodeRecord(raw, "id")
	if err != nil {
		return Server{}, err
	}
	return Server{ID: ids[0], Fields: f}, nil
}

func serverIdentity(s Server) string { return s.ID }

// serverItem decodes a server inside a list, where it must identify
// itself.
var serverItem = listed(decodeServer, serverIdentity, "server")

// UnmarshalJSON decodes a server record, keeping every member; null
// leaves s as it is.
func (s *Server) UnmarshalJSON(b []byte) error { return unmarshalRecord(b, decodeServer, s) }

// MarshalJSON writes the record as the service sent it, with ID set in it
// when it did not hold it (it was filled in from the request, or
// changed); a Server built in Go is written from ID, and the zero Server
// as null.
func (s Server) MarshalJSON() ([]byte, error) {
	return marshalRecord(s.Fields, "id", s.ID)
}

// ServersService reads dedicated servers. Use it through Client.Servers.
type ServersService service

// Get reads one dedicated server (GET /api/servers/{id}) by its canonical
// id, as obtained from the dashboard or from search. The id is sent as one
// path segment, so "203.0.113.7:27015" and even "a/b" stay whole. A server
// the service does not know is an *APIError that matches ErrNotFound.
func (s *ServersService) Get(ctx context.Context, id string, opts ...CallOption) (*Server, error) {
	c, cfg, err := (*service)(s).resolve(ctx, opts)
	if err != nil {
		return nil, err
	}
	return getServer(ctx, c, cfg, id)
}

// getServer is Get with its options resolved: GetMany calls it for each
// server.
func getServer(ctx context.Context, c *Client, cfg callConfig, id string) (*Server, error) {
	if err := checkSegments([]string{"server id"}, id); err != nil {
		return nil, err
	}
	srv, err := getRecord(ctx, c, cfg, manifest.Server, "server record", decodeServer, id)
	if err != nil {
		return nil, err
	}
	srv.ID = cmp.Or(srv.ID, id)
	return &srv, nil
}
