package gamedata

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// This file holds the rules of RFC 9111 for a private cache, as the
// client applies them to GET responses with status 200.

// storable tells whether a response may be stored: status 200, no
// no-store, no Vary beyond Accept-Encoding (the client sends nothing else
// a response could vary on, and a cache that honoured other fields would
// have to key on them), and some freshness or a validator, without which
// an entry could never be served.
func storable(status int, h http.Header) bool {
	if status != http.StatusOK {
		return false
	}
	cc := parseCacheControl(h)
	if cc.has("no-store") || !varyAllowed(h) {
		return false
	}
	_, hasMaxAge, _ := cc.seconds("max-age")
	return hasMaxAge || h.Get("Expires") != "" || h.Get("Etag") != "" || h.Get("Last-Modified") != ""
}

func varyAllowed(h http.Header) bool {
	for _, line := range h.Values("Vary") {
		for f := range strings.SplitSeq(line, ",") {
			if f = strings.TrimSpace(f); f != "" && !strings.EqualFold(f, "Accept-Encoding") {
				return false
			}
		}
	}
	return true
}

// lifetime is the freshness lifetime (RFC 9111 §4.2.1): max-age, else
// Expires minus Date, else zero, since the client uses no heuristic
// freshness. s-maxage is for shared caches and is ignored.
func (e *cacheEntry) lifetime(cc directives) time.Duration {
	if v, present, _ := cc.seconds("max-age"); present {
		return v
	}
	expires, err := http.ParseTime(e.header.Get("Expires"))
	if err != nil {
		return 0 // none, or an invalid date, which means already expired
	}
	return expires.Sub(e.date())
}

// date is the Date header, or the time the response arrived when the
// service sent none or an unreadable one.
func (e *cacheEntry) date() time.Time {
	if d, err := http.ParseTime(e.header.Get("Date")); err == nil {
		return d
	}
	return e.received
}

// age is the current age (RFC 9111 §4.2.3) at now.
func (e *cacheEntry) age(now time.Time) time.Duration {
	apparent := max(0, e.received.Sub(e.date()))
	var ageValue time.Duration
	if s, err := strconv.ParseInt(strings.TrimSpace(e.header.Get("Age")), 10, 32); err == nil && s > 0 {
		ageValue = time.Duration(s) * time.Second
	}
	corrected := ageValue + max(0, e.received.Sub(e.requested))
	return max(apparent, corrected) + max(0, now.Sub(e.received))
}

// fresh tells whether the entry may be served at now without a request.
func (e *cacheEntry) fresh(now time.Time) bool {
	cc := parseCacheControl(e.header)
	return !cc.has("no-cache") && e.lifetime(cc) > e.age(now)
}

// servableOnError tells whether the stale entry may stand in for a
// response that failed at now: only within the service's stale-if-error
// (RFC 5861 §4), and never when it demanded revalidation.
func (e *cacheEntry) servableOnError(now time.Time) bool {
	cc := parseCacheControl(e.header)
	if cc.has("no-cache") || cc.has("must-revalidate") {
		return false
	}
	grace, _, ok := cc.seconds("stale-if-error")
	return ok && e.age(now) < e.lifetime(cc)+grace
}

// conditional returns the headers that revalidate the entry, or nil when
// it has no validator.
func (e *cacheEntry) conditional() http.Header {
	h := http.Header{}
	if etag := e.header.Get("Etag"); etag != "" {
		h.Set("If-None-Match", etag)
	}
	if lm := e.header.Get("Last-Modified"); lm != "" {
		h.Set("If-Modified-Since", lm)
	}
	if len(h) == 0 {
		return nil
	}
	return h
}

// selects tells whether a 304 with header h is about this entry: a 304
// that names another validator than the stored one updates nothing (RFC 9111 §4.3.4).
func (e *cacheEntry) selects(h http.Header) bool {
	got := h.Get("Etag")
	return got == "" || got == e.header.Get("Etag")
}
