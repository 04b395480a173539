package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
)

// cacheCounts are the cache's counters, read by Client.Stats.
type cacheCounts struct {
	hits, revalidations, misses atomic.Int64
}

func nothingToKeep() {}

// read returns the body of a GET of u from the cache or the service, and
// keep, which stores what the cache should keep of this response. The
// caller calls keep only once the body has decoded, so a body that does
// not decode is never stored.
//
// The cache sits above send and below decoding: a cached page is decoded,
// and so checked for its pagination.page, like a fresh one, while a
// redirect to another page fails in send and is never stored.
func (c *Client) read(ctx context.Context, u *url.URL) (body []byte, keep func(), err error) {
	if c.cache == nil || ctx == nil {
		r, err := c.send(ctx, u, nil)
		if err != nil {
			return nil, nil, err
		}
		if r.status == http.StatusNotModified {
			return nil, nil, notModifiedError(u)
		}
		return r.body, nothingToKeep, nil
	}
	mode := cacheModeOf(ctx)
	key := u.String()
	var stored *cacheEntry
	if mode != cacheSkip {
		stored = c.cached(key)
	}
	if stored != nil && mode == cacheNormal && stored.fresh(c.clock.now()) {
		c.cacheCounts.hits.Add(1)
		return stored.body, nothingToKeep, nil
	}
	var header http.Header
	if stored != nil {
		header = stored.conditional()
	}
	requested := c.clock.now()
	r, err := c.send(ctx, u, header)
	received := c.clock.now()
	switch {
	case err != nil:
		if stored != nil && ctx.Err() == nil && serverFailed(err) && stored.servableOnError(received) {
			c.cacheCounts.hits.Add(1)
			return stored.body, nothingToKeep, nil
		}
		return nil, nil, err
	case r.status == http.StatusNotModified && header == nil:
		return nil, nil, notModifiedError(u)
	case r.status == http.StatusNotModified && !stored.selects(r.header):
		// The 304 is about another version than the stored one: read
		// the current one in full.
		return c.read(SkipCache(ctx), u)
	case r.status == http.StatusNotModified:
		c.cacheCounts.revalidations.Add(1)
		stored.update(r.header, requested, received)
		return stored.body, func() { c.cache.Set(key, stored.encode()) }, nil
	}
	c.cacheCounts.misses.Add(1)
	if !storable(r.status, r.header) {
		if stored != nil {
			c.cache.Delete(key)
		}
		return r.body, nothingToKeep, nil
	}
	e := newCacheEntry(r.status, r.header, requested, received, r.body)
	return r.body, func() { c.cache.Set(key, e.encode()) }, nil
}

// cached returns the entry stored under key, dropping one that does not
// decode.
func (c *Client) cached(key string) *cacheEntry {
	raw, ok := c.cache.Get(key)
	if !ok {
		return nil
	}
	e, err := decodeCacheEntry(raw)
	if err != nil || e.status != http.StatusOK {
		c.cache.Delete(key)
		return nil
	}
	return e
}

// serverFailed tells the failures that stale-if-error covers: the service
// unreachable, or answering 500, 502, 503 or 504 (RFC 5861 §4).
func serverFailed(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return retryableError(err) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
}

func notModifiedError(u *url.URL) error {
	return fmt.Errorf("gamedata: GET %s: 304 Not Modified to a request that named no validator", u)
}
