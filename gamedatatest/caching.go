package gamedatatest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Family names a family of endpoints that share a caching policy.
type Family string

// The endpoint families.
const (
	FamilyDashboard             Family = "dashboard"              // /api/dashboard
	FamilySearch                Family = "search"                 // /api/search
	FamilyPackage               Family = "package"                // /api/packages/{kind}/{ident}
	FamilyServer                Family = "server"                 // /api/servers/{id}
	FamilyOrganization          Family = "organization"           // /api/organizations/{ident}
	FamilyOrganizations         Family = "organizations"          // /api/organizations
	FamilyActivity              Family = "activity"               // /api/activity-history
	FamilyAnalyticsSearch       Family = "analytics-search"       // /api/analytics/packages
	FamilyAnalyticsPackage      Family = "analytics-package"      // /api/analytics/packages/{kind}/{ident}
	FamilyAnalyticsOrganization Family = "analytics-organization" // /api/analytics/organizations/{ident}
	FamilyOpenAPI               Family = "openapi"                // /openapi.json
)

// Families returns every endpoint family.
func Families() []Family {
	return []Family{
		FamilyDashboard, FamilySearch, FamilyPackage, FamilyServer, FamilyOrganization, FamilyOrganizations,
		FamilyActivity, FamilyAnalyticsSearch, FamilyAnalyticsPackage, FamilyAnalyticsOrganization, FamilyOpenAPI,
	}
}

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

// WithCachePolicy starts the server with policy p for family f; see
// Server.SetCachePolicy.
func WithCachePolicy(f Family, p CachePolicy) Option {
	return func(c *config) {
		if c.caching == nil {
			c.caching = map[Family]CachePolicy{}
		}
		c.caching[f] = p
	}
}

// SetCachePolicy sets the caching policy of family f. With validators, a
// 200 answer carries a strong ETag derived from its body bytes and a
// Last-Modified (the last change to the twin's data); a request whose
// If-None-Match names that ETag (or "*"), or without If-None-Match whose
// If-Modified-Since is not before Last-Modified, is answered 304 with no
// body, logged with Status 304 and Bytes 0. Faults are drawn before, so a
// conditional request can still meet one.
func (s *Server) SetCachePolicy(f Family, p CachePolicy) { s.h.caching.set(f, p) }

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
