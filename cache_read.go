package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/gamedata-go/gamedata/internal/httpcache"
)

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
	if stored != nil && mode == cacheNormal && stored.Fresh(c.clock.Now()) {
		c.cacheCounts.hits.Add(1)
		return stored.Body(), nothingToKeep, nil
	}
	header := stored.Conditional()
	requested := c.clock.Now()
	r, err := c.send(ctx, u, header)
	received := c.clock.Now()
	switch {
	case err != nil:
		if stored != nil && ctx.Err() == nil && serverFailed(err) && stored.ServableOnError(received) {
			c.cacheCounts.hits.Add(1)
			return stored.Body(), nothingToKeep, nil
		}
		return nil, nil, err
	case r.status != http.StatusNotModified:
		return r.body, c.keeper(key, stored, r, requested, received), nil
	case header == nil:
		return nil, nil, fmt.Errorf("gamedata: GET %s: 304 Not Modified to a request that named no validator", u)
	case !stored.Selects(r.header):
		// The 304 is about another version than the stored one: read
		// the current one in full.
		return c.read(SkipCache(ctx), u)
	}
	c.cacheCounts.revalidations.Add(1)
	stored.Update(r.header, requested, received)
	return stored.Body(), func() { c.cache.Set(key, stored.Encode()) }, nil
}

// lookup returns how a call made with ctx uses the cache, and the entry
// it may serve or revalidate, if any.
func (c *Client) lookup(ctx context.Context, key string) (*httpcache.Entry, cacheMode) {
	if c.cache == nil || ctx == nil {
		return nil, cacheSkip
	}
	mode := cacheModeOf(ctx)
	if mode == cacheSkip {
		return nil, mode
	}
	return httpcache.Load(c.cache, key), mode
}

// keeper returns what stores a full response r, if the service allows
// it to be stored; a stored entry it may not replace is dropped.
func (c *Client) keeper(key string, stored *httpcache.Entry, r *response, requested, received time.Time) func() {
	if c.cache == nil {
		return nothingToKeep
	}
	c.cacheCounts.misses.Add(1)
	e, ok := httpcache.NewEntry(r.status, r.header, requested, received, r.body)
	if !ok {
		if stored != nil {
			c.cache.Delete(key)
		}
		return nothingToKeep
	}
	return func() { c.cache.Set(key, e.Encode()) }
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
