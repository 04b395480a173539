package gamedata

import "golang.org/x/time/rate"

// ClientStats are what a client has done since NewClient: its requests,
// the throttling it met and the rate in force, and what its cache saved.
// A walk's own counts are WalkStats.
type ClientStats struct {
	// Rate is the client-side rate limit now in force: the ceiling, or
	// the rate learned from the service's throttling.
	Rate rate.Limit
	// Ceiling is the rate set with WithRateLimit.
	Ceiling rate.Limit
	// Requests counts attempts sent, retries and redirects included.
	Requests int64
	// Throttled counts throttling responses: 429, or 503 with
	// Retry-After.
	Throttled int64
	// CacheHits counts calls served from the cache without a request.
	CacheHits int64
	// CacheRevalidations counts conditional requests answered 304 Not
	// Modified, which reused the cached body.
	CacheRevalidations int64
	// CacheMisses counts calls, with caching on, that read a full
	// response from the service.
	CacheMisses int64
}

// Stats returns the client's request counts, current rate and cache
// counts; a Client that NewClient did not make has done nothing.
func (c *Client) Stats() ClientStats {
	if c == nil || c.adaptive == nil {
		return ClientStats{}
	}
	a := c.adaptive.Counts()
	return ClientStats{
		Rate:               a.Rate,
		Ceiling:            a.Ceiling,
		Requests:           a.Requests,
		Throttled:          a.Throttled,
		CacheHits:          c.cacheCounts.hits.Load(),
		CacheRevalidations: c.cacheCounts.revalidations.Load(),
		CacheMisses:        c.cacheCounts.misses.Load(),
	}
}
