package gamedatatest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"time"
)

// CachePolicy is what the twin tells clients about caching the 200
// answers of one endpoint family.
//
// The default of every family is DefaultCachePolicy: Cache-Control
// no-cache with validators, so a client may store an answer but must
// revalidate it on every use. A test that changes the twin's data then sees
// the change on its next call, and an unchanged answer costs a 304 without
// a body. A max-age would let a client serve an answer the test has just
// changed.
type CachePolicy struct {
	// CacheControl is the Cache-Control header, such as "no-cache",
	// "max-age=60" or "no-store"; "" sends none.
	CacheControl string
	// NoValidators sends neither ETag nor Last-Modified, and conditional
	// requests are answered in full. With an empty CacheControl it sends no
	// caching header at all.
	NoValidators bool
}

// DefaultCachePolicy is the policy of every family unless WithCachePolicy
// or Server.SetCachePolicy says otherwise.
var DefaultCachePolicy = CachePolicy{CacheControl: "no-cache"}

// cachePolicies holds the policy of each family.
type cachePolicies struct {
	mu sync.Mutex
	m  map[Family]CachePolicy
}

func (c *cachePolicies) set(f Family, p CachePolicy) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[Family]CachePolicy{}
	}
	c.m[f] = p
}

func (c *cachePolicies) get(f Family) CachePolicy {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.m[f]; ok {
		return p
	}
	return DefaultCachePolicy
}

// conditional adds the caching headers of rep's family to a 200 answer,
// and turns it into a 304 when r's validators match.
func (c *cachePolicies) conditional(r *http.Request, rep reply) reply {
	if rep.status != http.StatusOK || rep.family == "" {
		return rep
	}
	p := c.get(rep.family)
	if rep.header == nil {
		rep.header = http.Header{}
	}
	if p.CacheControl != "" {
		rep.header.Set("Cache-Control", p.CacheControl)
	}
	if p.NoValidators {
		return rep
	}
	etag := etagOf(rep.body)
	modified := rep.modified.UTC().Truncate(time.Second)
	rep.header.Set("ETag", etag)
	rep.header.Set("Last-Modified", modified.Format(http.TimeFormat))
	if notModified(r, etag, modified) {
		return reply{status: http.StatusNotModified, header: rep.header}
	}
	return rep
}

// etagOf is a strong validator of body: equal bodies, equal tags.
func etagOf(body []byte) string {
	sum := sha256.Sum256(body) // hardware-accelerated: cheaper than FNV on a large history
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// notModified applies RFC 9110's conditional GET: If-None-Match with weak
// comparison when present, else If-Modified-Since.
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		for _, list := range inm {
			for _, tag := range strings.Split(list, ",") {
				tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
				if tag == "*" || tag == etag {
					return true
				}
			}
		}
		return false
	}
	ims, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	return err == nil && !modified.After(ims)
}
