package exporter

import (
	"math"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"
)

// collector serves the last poll's snapshot, the exporter's health and the
// client's own counts. It is a Collector over a snapshot rather than
// registered gauges because a poll replaces the whole set at once: an
// entry that left the directory has no series to delete, a scrape never
// sees half a poll, and the families derived from members, whose names
// are known only once a poll has read them, need no registration.
type collector struct {
	// current is the exporter's snapshot for a scrape now: the last
	// poll's, without what has grown stale since.
	current func() *snapshot
	// health reads the exporter's health under its lock.
	health func() health
	client *gamedata.Client
}

// health is the exporter's own state, for its metrics and /healthz.
type health struct {
	polled bool // a poll has ended
	up     bool
	// lastSuccess is when the last poll that succeeded in full started,
	// its time; succeeded is when it ended, from which it ages.
	lastSuccess, succeeded time.Time
	duration               time.Duration
	errors                 int
}

// Describe sends nothing: the collector is unchecked, since the member
// families are known only after a poll. The registry still refuses, at
// gather time, two series alike or one name with two helps, which build
// never makes.
func (collector) Describe(chan<- *prometheus.Desc) {}

// Collect sends what the last poll read and reads the client's counts,
// which costs no request.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	for _, m := range c.current().metrics {
		ch <- m
	}
	h := c.health()
	ch <- up.metric(flag(h.up))
	if !h.lastSuccess.IsZero() {
		ch <- lastSuccess.metric(float64(h.lastSuccess.UnixNano()) / 1e9)
	}
	if h.polled {
		ch <- pollDuration.metric(h.duration.Seconds())
	}
	ch <- pollErrors.metric(float64(h.errors))

	s := c.client.Stats()
	ch <- clientRequests.metric(float64(s.Requests))
	ch <- clientThrottled.metric(float64(s.Throttled))
	ch <- clientCacheHits.metric(float64(s.CacheHits))
	ch <- clientRevalidations.metric(float64(s.CacheRevalidations))
	limit := float64(s.Rate)
	if s.Rate == rate.Inf {
		limit = math.Inf(1)
	}
	ch <- clientRateLimit.metric(limit)
}
