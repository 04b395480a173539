package gamedata

import (
	"context"
	"encoding/json"
	"fmt"
)

// OpenAPI returns the service's machine-readable description, an OpenAPI
// 3.1 document (GET /openapi.json under the base URL), as sent.
func (c *Client) OpenAPI(ctx context.Context) (json.RawMessage, error) {
	var doc json.RawMessage
	err := c.getJSON(ctx, c.endpoint(nil, "openapi.json"), func(b []byte) error {
		if err := validJSON(b); err != nil {
			return fmt.Errorf("OpenAPI description is not valid JSON: %w", err)
		}
		doc = b
		return nil
	})
	return doc, err
}
