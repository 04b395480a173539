package gamedata

import (
	"fmt"
	"net/url"

	"github.com/google/go-querystring/query"
)

// maxPageSize is the service's documented limit on pageSize.
const maxPageSize = 100

// encodeQuery encodes an options struct through its `url` tags and adds
// params, the parameters the service takes but does not document. A name
// in params that a field of the struct already sends is refused, so a
// parameter is never sent twice by accident.
func encodeQuery(opts any, params url.Values) (url.Values, error) {
	q, err := query.Values(opts)
	if err != nil {
		return nil, fmt.Errorf("gamedata: encode query: %w", err)
	}
	for name, values := range params {
		if _, sent := q[name]; sent {
			return nil, invalidArgument("Params sets %q, which a field of %T already sends", name, opts)
		}
		q[name] = append(q[name], values...)
	}
	return q, nil
}

// checkPaging refuses a page or page size the service cannot serve, before
// any request is sent.
func checkPaging(page, pageSize int) error {
	switch {
	case page < 0:
		return invalidArgument("page %d, want 1 or more (0 means 1)", page)
	case pageSize < 0 || pageSize > maxPageSize:
		return invalidArgument("page size %d, want 1 to %d (0 means the service's default)", pageSize, maxPageSize)
	}
	return nil
}
