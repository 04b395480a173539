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
// # Recordings
//
// OpenRecording opens a HAR 1.2 file of what the real service answered:
// its Transport, the http.RoundTripper of a client, records the answers
// once and replays them offline afterwards, in the modes of vcrpy (none,
// once, new_episodes, all), scrubbed of credentials before anything is
// kept; NewServer(WithRecording(rec)) serves a recording as a twin, under
// the twin's faults. See Recording.
//
// # Consistency
//
// The figures of one package, organization or of the platform are drawn
// around one level, so that they agree with each other as a platform's do.
// In a catalogue as generated, and as Advance moves it on:
//
//   - A package's current players lie within a factor of three of its
//     7-day average and of its latest known history value, give or take one
//     player (a package no one plays now averages a fraction of a player).
//   - A package's playersPeak, its all-time peak, is at least its current
//     players and at least every players and playersPeak of its analytics
//     history; a day's playersPeak is at least that day's players.
//   - A range summary covers the history entries captured within the range
//     before Now. Its average is the mean of their known players, rounded
//     to three decimals and between the least and the greatest of them; its
//     peak is the greatest known players or playersPeak among them; either
//     is null when no value is known. Its partialCoverage is true when any
//     entry's is.
//   - Partial coverage is a lower bound: a partial history entry or
//     activity point counts only the share of players that was recorded
//     (the older, the smaller), so what sums it up is a lower bound too.
//   - Nulls stay nulls: current players, playersPeak, a history value or
//     an activity point may be null, and a null is left out of averages
//     and peaks, never counted as 0.
//   - An organization's history is drawn around the sum of its packages'
//     levels: its 7-day average is within a factor of three of the sum of
//     its packages' 7-day averages.
//   - The players on a package's dedicated servers add up to at most its
//     current players.
//   - The current point of the activity history is, in every range, the sum
//     of the known current players of the games (kind game: mods and tools
//     are played within games); the points before it follow a daily and a
//     weekly wave around it. After Advance the current point follows that
//     wave, within a factor of three of the sum.
//
// The histories are the past: UpdatePackage, AddPackage, RemovePackage and
// ReorderEvery's shifts change packages, not histories, so the relations to
// a history may not hold for the packages they changed. A playersPeak
// below the players they set rises to them.
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
