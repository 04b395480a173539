package exporter

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// family is one metric family: what the / page lists and what a metric
// is made from.
type family struct {
	name, help string
	labels     []string
	counter    bool
	desc       *prometheus.Desc
}

func newFamily(name, help string, counter bool, labels ...string) *family {
	return &family{name: name, help: help, labels: labels, counter: counter,
		desc: prometheus.NewDesc(name, help, labels, nil)}
}

// kindName is the family's type as an exposition names it.
func (f *family) kindName() string {
	if f.counter {
		return "counter"
	}
	return "gauge"
}

// metric is a sample of f with no timestamp: Prometheus stamps it with the
// scrape's time, so staleness works, and the poll's time is a gauge of
// its own. It is nil when client_golang refuses the label values, which
// labelValue makes valid UTF-8 beforehand.
func (f *family) metric(v float64, labels ...string) prometheus.Metric {
	t := prometheus.GaugeValue
	if f.counter {
		t = prometheus.CounterValue
	}
	m, err := prometheus.NewConstMetric(f.desc, t, v, labels...)
	if err != nil {
		return nil
	}
	return m
}

// The families of every poll. A family's HELP says where its value comes
// from; a null the service sent is an absent sample, never 0.
var (
	packagePlayers = newFamily("gamedata_package_players",
		"Players of the package now: the member players of its directory entry or record. Absent when the service sends null.",
		false, "kind", "ident")
	packagePlayersPeak = newFamily("gamedata_package_players_peak",
		"Peak players of the package, as the service reports it: the member playersPeak. Absent when null or not sent.",
		false, "kind", "ident")
	packageInfo = newFamily("gamedata_package_info",
		fmt.Sprintf("Always 1: the package's title and organization, publisher text sanitized and cut to %d characters.", maxLabelRunes),
		false, "kind", "ident", "title", "organization")
	serverPlayers = newFamily("gamedata_server_players",
		"Players on the dedicated server: the member players of its directory entry or record. Absent when null.",
		false, "id")
	serverMaxPlayers = newFamily("gamedata_server_max_players",
		"Player slots of the dedicated server: the member maxPlayers, where sent. Absent when null or not sent.",
		false, "id")
	platformPlayers = newFamily("gamedata_platform_players",
		"Players across the platform at the latest point of the activity history (range 7d). Absent when null; a lower bound when gamedata_platform_players_partial is 1.",
		false)
	platformPartial = newFamily("gamedata_platform_players_partial",
		"1 when the latest activity point has partial coverage (games not recorded may be missing from it, so gamedata_platform_players is a lower bound), 0 when it has not.",
		false)

	up = newFamily("gamedata_up",
		"1 when the last poll of the service succeeded in full, 0 when a part of it failed or no poll has ended yet.",
		false)
	lastSuccess = newFamily("gamedata_last_poll_success_timestamp_seconds",
		"Unix time at which the last poll that succeeded in full started. Absent before the first.",
		false)
	pollDuration = newFamily("gamedata_poll_duration_seconds",
		"How long the last poll took. Absent before the first has ended.",
		false)
	pollErrors = newFamily("gamedata_poll_errors_total",
		"Polls of which a part failed; the parts that failed keep their last values for a few intervals.",
		true)
	clientRequests = newFamily("gamedata_client_requests_total",
		"HTTP requests the client sent to the service, retries and redirects included.",
		true)
	clientThrottled = newFamily("gamedata_client_throttled_total",
		"Throttling responses the client met: 429, or 503 with Retry-After.",
		true)
	clientCacheHits = newFamily("gamedata_client_cache_hits_total",
		"Calls the client served from its cache without a request.",
		true)
	clientRevalidations = newFamily("gamedata_client_cache_revalidations_total",
		"Conditional requests the service answered 304 Not Modified: an unchanged page or record read without its body.",
		true)
	clientRateLimit = newFamily("gamedata_client_rate_limit",
		"The client-side rate limit in force, in requests a second: the ceiling (--rate), or lower while the service throttles. +Inf for none.",
		false)
)

// fixedFamilies are every family but those derived from members, in the
// order the / page lists them.
var fixedFamilies = []*family{
	packagePlayers, packagePlayersPeak, packageInfo, serverPlayers, serverMaxPlayers,
	platformPlayers, platformPartial,
	up, lastSuccess, pollDuration, pollErrors,
	clientRequests, clientThrottled, clientCacheHits, clientRevalidations, clientRateLimit,
}

// memberFamily is the family of a numeric member of package entries
// other than players and playersPeak, named by memberSuffix.
func memberFamily(member, suffix string) *family {
	return newFamily("gamedata_package_"+suffix,
		fmt.Sprintf("The numeric member %q of the package's directory entry or record, as the service sent it. Absent when null.", labelValue(member)),
		false, "kind", "ident")
}
