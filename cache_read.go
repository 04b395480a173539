package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"
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
	key := u.String()
	stored, mode := c.lookup(ctx, key)
	if stored != nil && mode == cacheNormal && stored.fresh(c.clock.Now()) {
		c.cacheCounts.hits.Add(1)
		return stored.body, nothingToKeep, nil
	}
	var header http.Header
	if stored != nil {
		header = stored.conditional()
	}
	requested := c.clock.Now()
	r, err := c.send(ctx, u, header)
	received := c.clock.Now()
	switch {
	case err != nil:
		if stored != nil && ctx.Err() == nil && serverFailed(err) && stored.servableOnError(received) {
			c.cacheCounts.hits.Add(1)
			return stored.body, nothingToKeep, nil
		}
		return nil, nil, err
	case r.status != http.StatusNotModified:
		return r.body, c.keeper(key, stored, r, requested, received), nil
	case header == nil:
		return nil, nil, fmt.Errorf("gamedata: GET %s: 304 Not Modified to a request that named no validator", u)
	case !stored.selects(r.header):
		// The 304 is about another version than the stored one: read
		// the current one in full.
		return c.read(SkipCache(ctx), u)
	}
	c.cacheCounts.revalidations.Add(1)
	stored.update(r.header, requested, received)
	return stored.body, func() { c.cache.Set(key, stored.encode()) }, nil
}

// lookup returns how a call made with ctx uses the cache, and the entry
// it may serve or revalidate, if any.
func (c *Client) lookup(ctx context.Context, key string) (*cacheEntry, cacheMode) {
	if c.cache == nil || ctx == nil {
		return nil, cacheSkip
	}
	mode := cacheModeOf(ctx)
	if mode == cacheSkip {
		return nil, mode
	}
	return c.cached(key), mode
}

// keeper returns what stores a full response r, if the service allows
// it to be stored; a stored entry it may not replace is dropped.
func (c *Client) keeper(key string, stored *cacheEntry, r *response, requested, received time.Time) func() {
	if c.cache == nil {
		return nothingToKeep
	}
	c.cacheCounts.misses.Add(1)
	if !storable(r.status, r.header) {
		if stored != nil {
			c.cache.Delete(key)
		}
		return nothingToKeep
	}
	e := newCacheEntry(r.status, r.header, requested, received, r.body)
	return func() { c.cache.Set(key, e.encode()) }
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
