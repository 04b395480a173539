package gamedata

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gamedata-go/gamedata/internal/manifest"
)

// OpenAPI returns the service's machine-readable description, an OpenAPI
// 3.1 document (GET /openapi.json under the base URL), as sent.
func (c *Client) OpenAPI(ctx context.Context, opts ...CallOption) (json.RawMessage, error) {
	var doc json.RawMessage
	err := (&service{client: c}).get(ctx, opts, manifest.OpenAPI, nil, func(b []byte) error {
		if !json.Valid(b) {
			return errors.New("OpenAPI description is not valid JSON")
		}
		doc = b
		return nil
	})
	return doc, err
}
