package gamedatatest

import (
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

// DefaultSeed is the seed of a server made without WithSeed.
const DefaultSeed int64 = 20261120

// Default catalogue sizes, used unless WithSize says otherwise.
const (
	DefaultPackages      = 250
	DefaultServers       = 120
	DefaultOrganizations = 30
)

// Option configures a Server made by NewServer.
type Option func(*config)

type config struct {
	seed                             int64
	packages, servers, organizations int
	latency                          time.Duration
	faults                           Faults
	perSecond                        float64
	burst                            int
	historyPoints                    int
	awkward                          bool
	caching                          map[Family]CachePolicy
	clock                            clock
	now                              time.Time
	recording                        *Recording
}

// WithSeed sets the seed the catalogue (and, unless Faults.Seed is set, the
// fault injection) is generated from. Servers with the same seed and sizes
// serve identical data.
func WithSeed(seed int64) Option { return func(c *config) { c.seed = seed } }

// WithSize sets the number of packages, dedicated servers and organizations
// in the catalogue. Negative numbers count as zero; servers are capped at the
// number of distinct ids the documentation address ranges allow (16764).
func WithSize(packages, servers, organizations int) Option {
	return func(c *config) {
		c.packages, c.servers, c.organizations = max(packages, 0), max(servers, 0), max(organizations, 0)
	}
}

// WithLatency adds d to every response, before anything is written. A
// request whose context ends meanwhile is answered at once.
func WithLatency(d time.Duration) Option { return func(c *config) { c.latency = max(d, 0) } }

// WithFaults starts the server with fault injection f; see Server.SetFaults.
func WithFaults(f Faults) Option { return func(c *config) { c.faults = f } }

// WithRateLimit starts the server with a rate limit; see Server.SetRateLimit.
func WithRateLimit(perSecond float64, burst int) Option {
	return func(c *config) { c.perSecond, c.burst = perSecond, burst }
}

// WithHistoryPoints makes every activity-history range answer exactly n
// points spread over the range, instead of its natural resolution (1440 for
// 24h up to 35040 for all), for benchmarks and tests of large bodies. n <= 0
// keeps the natural resolution.
func WithHistoryPoints(n int) Option { return func(c *config) { c.historyPoints = max(n, 0) } }

// WithAwkwardIdents adds game packages whose idents need escaping in a URL
// path: "a/b", "with space", "100%", "q?x=1", "frag#1", "..", "plus+sign"
// and "ünïcode", because real directories hold idents like these. A client
// that does not escape path segments fails to fetch them. The ".." package
// is listed in the directory and the twin answers /api/packages/game/..
// (or %2E%2E) with it, but a correct client does not ask: a path segment
// of "..", escaped or not, is a dot segment that URL resolution, clients
// and proxies remove (RFC 3986, section 5.2.4), so the request would reach
// another path on a real service. The gamedata SDK refuses it before
// sending, with an error that wraps
// gamedata.ErrInvalidArgument. A program that walks the directory should
// skip such an entry and say why.
func WithAwkwardIdents() Option { return func(c *config) { c.awkward = true } }

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

// WithNow starts the twin with its clock at t, as if Advance had moved it
// there from the reference time (2026-11-20T10:00:00Z): the histories end
// at t, and the data of the same seed and sizes is the same whenever it
// is started at the same t. A twin a program starts for a person should
// start at time.Now(), so that what it serves reaches today; a test or an
// Example with // Output: leaves it out, to keep the reference time. A t
// before the reference time keeps the reference time: the twin's clock
// never runs back.
func WithNow(t time.Time) Option { return func(c *config) { c.now = t } }

// WithRecording makes the twin serve rec in place of its catalogue, for
// replay offline: every request is answered from the recording as
// Recording.Transport replays it, whatever rec's mode (the twin sends
// nothing on), and a miss is a 404 that rec.Unmatched lists. Latency,
// faults, the rate limit and Requests work as on any twin, so a test
// replays a recording under faults; the twin's caching policies,
// Catalog and data changes do not touch the answers.
func WithRecording(rec *Recording) Option { return func(c *config) { c.recording = rec } }

// started is s, as generated, moved on to WithNow's time.
func (c *config) started(s *catalog.Snapshot) *catalog.Snapshot {
	if d := c.now.Sub(s.Now()); !c.now.IsZero() && d > 0 {
		return s.Advance(d)
	}
	return s
}

// withClock runs the server's rate limit and latency on c.
func withClock(c clock) Option { return func(cfg *config) { cfg.clock = c } }
