// Package httpcache is a private HTTP cache of GET responses by the rules
// of RFC 9111 (and RFC 5861's stale-if-error): which responses may be
// stored, how long an entry is fresh, how to revalidate it and when a
// stale one may stand in for a failure. An Entry is a stored response,
// encoded with a checksum for any Store; Memory and Disk are the stores
// this package provides.
package httpcache

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Store keeps encoded entries by key. Implementations must be safe for
// concurrent use; they may lose or damage entries, which then read as
// misses.
type Store interface {
	Get(key string) ([]byte, bool)
	Set(key string, value []byte)
	Delete(key string)
}

// storable tells whether a response whose Cache-Control says cc may be
// stored: status 200, no no-store, no Vary beyond Accept-Encoding (the
// client sends nothing else a response could vary on, and a cache that
// honoured other fields would have to key on them), and some freshness or
// a validator, without which an entry could never be served.
func storable(status int, h http.Header, cc directives) bool {
	if status != http.StatusOK || cc.noStore || !varyAllowed(h) {
		return false
	}
	return cc.maxAge.present || h.Get("Expires") != "" || h.Get("Etag") != "" || h.Get("Last-Modified") != ""
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

// deriveFreshness reads what the freshness rules need from the headers of
// a response, whose Cache-Control says cc, requested and received at the
// given times.
func deriveFreshness(h http.Header, cc directives, requested, received time.Time) freshness {
	f := freshness{
		lifetime:       lifetime(h, cc, received),
		initialAge:     initialAge(h, requested, received),
		staleIfError:   -1,
		noCache:        cc.noCache,
		mustRevalidate: cc.mustRevalidate,
	}
	if cc.staleIfError.ok {
		f.staleIfError = cc.staleIfError.v
	}
	return f
}

// lifetime is the freshness lifetime (RFC 9111 §4.2.1): max-age, else
// Expires minus Date, else zero, since the client uses no heuristic
// freshness. s-maxage is for shared caches and is ignored.
func lifetime(h http.Header, cc directives, received time.Time) time.Duration {
	if cc.maxAge.present {
		return cc.maxAge.v
	}
	expires, err := parseDate(h.Get("Expires"))
	if err != nil {
		return 0 // none, or an invalid date, which means already expired
	}
	return expires.Sub(date(h, received))
}

// date is the Date header, or the time the response arrived when the
// service sent none or an unreadable one.
func date(h http.Header, received time.Time) time.Time {
	if d, err := parseDate(h.Get("Date")); err == nil {
		return d
	}
	return received
}

// errNoDate is the error of an absent date header.
var errNoDate = errors.New("no date")

// parseDate is http.ParseTime, which on an empty header would make an
// error for each of the three formats it tries.
func parseDate(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, errNoDate
	}
	return http.ParseTime(v)
}

// initialAge is the corrected_initial_age of RFC 9111 §4.2.3: the age the
// response already had when it arrived.
func initialAge(h http.Header, requested, received time.Time) time.Duration {
	apparent := max(0, received.Sub(date(h, received)))
	var ageValue time.Duration
	if s, err := strconv.ParseInt(strings.TrimSpace(h.Get("Age")), 10, 32); err == nil && s > 0 {
		ageValue = time.Duration(s) * time.Second
	}
	return max(apparent, ageValue+max(0, received.Sub(requested)))
}

// age is the current age (RFC 9111 §4.2.3) at now.
func (e *Entry) age(now time.Time) time.Duration {
	return e.freshness.initialAge + max(0, now.Sub(e.received))
}

// Fresh tells whether the entry may be served at now without a request.
func (e *Entry) Fresh(now time.Time) bool {
	return !e.freshness.noCache && e.freshness.lifetime > e.age(now)
}

// ServableOnError tells whether the stale entry may stand in for a
// response that failed at now: only within the service's stale-if-error
// (RFC 5861 §4), and never when it demanded revalidation.
func (e *Entry) ServableOnError(now time.Time) bool {
	f := e.freshness
	if f.noCache || f.mustRevalidate || f.staleIfError < 0 {
		return false
	}
	return e.age(now) < f.lifetime+f.staleIfError
}

// Conditional returns the headers that revalidate the entry, or nil when
// it has no validator or there is no entry (e is nil).
func (e *Entry) Conditional() http.Header {
	if e == nil {
		return nil
	}
	stored := e.headers()
	etag, lm := first(stored, "Etag"), first(stored, "Last-Modified")
	if etag == nil && lm == nil {
		return nil
	}
	h := make(http.Header, 2)
	if etag != nil {
		h["If-None-Match"] = etag
	}
	if lm != nil {
		h["If-Modified-Since"] = lm
	}
	return h
}

// first returns the first value of the header name in h, as a one-value
// slice of h's own (no copy: the entry's headers do not change), or nil
// when it is absent or empty.
func first(h http.Header, name string) []string {
	if v := h[name]; len(v) > 0 && v[0] != "" {
		return v[:1:1]
	}
	return nil
}

// Selects tells whether a 304 with header h is about this entry: a 304
// that names another validator than the stored one updates nothing (RFC
// 9111 §4.3.4).
func (e *Entry) Selects(h http.Header) bool {
	got := h.Get("Etag")
	return got == "" || got == e.headers().Get("Etag")
}
