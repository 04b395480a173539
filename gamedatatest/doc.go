// Package gamedatatest provides an in-process twin of the gamedata service
// for tests and offline examples, in the manner of net/http/httptest.
//
// NewServer starts an httptest.Server that answers the ten endpoints of the
// service and /openapi.json from a generated, deterministic catalogue: the
// same seed and sizes give the same bytes, whatever the clock says. The
// catalogue exercises the corners of the service: null metrics, fractional
// averages, snapshot points with null interval bounds, partial coverage,
// capturedAt timestamps in several ISO 8601 forms, awkward idents, and
// publisher text with terminal escapes, bidi overrides, control characters
// and instruction-like sentences, which a client must treat as data.
//
// The twin follows the service's rules: pages are one-based, pageSize is
// capped at 100, repeated filter parameters combine, an unsupported kind,
// sort or filter is normalized to the default, and a page beyond the last is
// redirected (302) to the last. Options add latency, seeded faults (5xx, 429,
// connection resets, bodies cut short with a Content-Length, chunked or
// gzip-compressed, stalls before the headers or in the middle of a body), a
// rate limit, and shifting directory order for tests of walks over moving
// entries.
//
// The faults are an http.Handler middleware, InjectFaults, that wraps any
// handler, so a test can inject the same faults into a server of its own.
//
// Every 200 answer carries caching headers, per endpoint family: by default
// a strong ETag derived from the body, a Last-Modified and Cache-Control:
// no-cache, and a conditional request that matches is answered 304 (see
// Server.SetCachePolicy). Tests watch data change with Server.UpdatePackage,
// AddPackage, RemovePackage and Advance, which moves the twin's clock so
// that the histories gain new points while the old ones stay as they were.
//
// Server.Catalog returns the ground truth to compare a client's results
// with: the directory entries typed (Entry, OrganizationEntry), each with
// its JSON as served, and the record, report, history and search bodies as
// the bytes the twin serves. Server.Requests returns the log of what the
// client asked, with each request's fault, status and body bytes, final
// by the time the client has read the answer; Server.WaitRequests waits
// for requests that have arrived but not been answered, such as stalled
// ones.
//
// # Wire format
//
// Responses are JSON objects, Content-Type application/json; charset=utf-8.
// Errors are {"error": "..."} with status 404 (unknown path or record), 405
// (any method but GET, with Allow: GET), 429 (rate limit or fault, with
// Retry-After) or 5xx (fault). Directories answer
//
//	{"items": [...], "pagination": {"page", "pageSize", "total", "totalPages", "hasNext"},
//	 "sort": "ident", "filters": [...]}
//
// where sort and filters are the ones applied after normalization. Dashboard
// sorts are ident (the default), name, players (descending, nulls last, ties
// by ident) and updated (newest first); its filters are online, has-players
// and org:<ident>; its kinds game, mod, tool, and server for dedicated
// servers. The organization directory sorts by ident, name or packages and
// filters by has-packages and verified. An empty directory answers page 1 with
// no items. Activity ranges are 24h, 7d (the default), 30d, 90d, 1y and all.
package gamedatatest
