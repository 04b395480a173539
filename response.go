package gamedata

import (
	"fmt"
	"net/http"
	"time"
)

// Response is what one call learnt about its answer: ask for it with
// WithResponseInto. An *APIError carries the Response of the call that
// failed.
type Response struct {
	// StatusCode is the status of the response the call served: the
	// stored one's (200) for a cache hit or a revalidation, else the last
	// one received. It is 0 when no response came.
	StatusCode int
	// Header is the header of that response. For a fresh cache hit it
	// holds only the headers the cache keeps (validators, freshness,
	// Vary); after a revalidation, those updated by the 304. Its values
	// are whatever the service sent, and are untrusted.
	Header http.Header
	// Attempts is how many attempts the call sent, retries included: 0
	// for a fresh cache hit, which sends nothing.
	Attempts int
	// Cache says how the cache took part.
	Cache CacheStatus
	// Duration is the time the call took, rate-limit waits and retries
	// included.
	Duration time.Duration
	// RateLimitWait is the part of Duration the call spent waiting on
	// the client's rate limiter, over all its attempts.
	RateLimitWait time.Duration
}

// CacheStatus says how the client's cache took part in a call.
type CacheStatus int

const (
	// CacheOff: the cache took no part, because the client has none
	// (WithCache(nil)) or the call asked for CacheSkip, or the call
	// failed before it reached the cache.
	CacheOff CacheStatus = iota
	// CacheMiss: the call read a full response from the service.
	CacheMiss
	// CacheHit: the call was served from the cache: a fresh stored
	// response without a request, or a stale one standing in for a
	// service that failed (stale-if-error).
	CacheHit
	// CacheRevalidated: the service answered a conditional request with
	// 304 Not Modified, and the call served the stored body.
	CacheRevalidated
)

// String returns "off", "miss", "hit" or "revalidated".
func (s CacheStatus) String() string {
	switch s {
	case CacheOff:
		return "off"
	case CacheMiss:
		return "miss"
	case CacheHit:
		return "hit"
	case CacheRevalidated:
		return "revalidated"
	}
	return fmt.Sprintf("CacheStatus(%d)", int(s))
}

// MarshalText writes s as String says it, so a Response marshalled to
// JSON (a log line, a message on a queue) says "hit", not a number.
func (s CacheStatus) MarshalText() ([]byte, error) {
	if s < CacheOff || s > CacheRevalidated {
		return nil, fmt.Errorf("gamedata: %s has no name", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (s *CacheStatus) UnmarshalText(b []byte) error {
	for c := CacheOff; c <= CacheRevalidated; c++ {
		if string(b) == c.String() {
			*s = c
			return nil
		}
	}
	return fmt.Errorf("gamedata: cache status %q: want off, miss, hit or revalidated", b)
}
