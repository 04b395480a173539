package gamedata

import "context"

// Cache stores encoded responses by key. Implementations must be safe for
// concurrent use. The client treats a value it cannot decode, or whose
// checksum does not match, as a miss, so a cache may lose or damage
// entries without ever producing a wrong record.
//
// NewMemoryCache and NewDiskCache are the implementations this package
// provides; any store with these three methods (Redis, a database) works.
type Cache interface {
	// Get returns the value stored under key, if any. The client does not
	// modify the returned slice.
	Get(key string) ([]byte, bool)
	// Set stores value under key, replacing any previous value. The
	// client does not modify value after the call.
	Set(key string, value []byte)
	// Delete removes the value stored under key, if any.
	Delete(key string)
}

// WithCache sets the cache of GET responses that the service allows to be
// cached (see the README, "Caching"). The default is NewMemoryCache(32 <<
// 20); WithCache(nil) turns caching off, so every call is a full request.
func WithCache(c Cache) Option {
	return func(cfg *config) error {
		cfg.cache = c
		return nil
	}
}

type cacheModeKey struct{}

// cacheMode says how one call uses the cache.
type cacheMode int

const (
	// cacheNormal serves a fresh entry without a request and revalidates
	// a stale one.
	cacheNormal cacheMode = iota
	// cacheRevalidate sends a conditional request whatever the entry's
	// freshness: Watch uses it.
	cacheRevalidate
	// cacheSkip neither serves nor revalidates; the response still
	// replaces the entry.
	cacheSkip
)

// SkipCache returns a context under which calls neither read from nor
// revalidate against the cache: each sends a full request, as with caching
// off. A response the service allows to be cached still replaces the
// stored one, so SkipCache also refreshes the cache.
func SkipCache(ctx context.Context) context.Context {
	return context.WithValue(ctx, cacheModeKey{}, cacheSkip)
}

func withCacheMode(ctx context.Context, m cacheMode) context.Context {
	return context.WithValue(ctx, cacheModeKey{}, m)
}

func cacheModeOf(ctx context.Context) cacheMode {
	m, _ := ctx.Value(cacheModeKey{}).(cacheMode)
	return m
}
