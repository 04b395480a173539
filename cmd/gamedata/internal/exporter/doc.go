// Package exporter is the engine of "gamedata exporter": it polls a slice
// of the service's directory, named packages and servers, and the
// platform's activity on an interval of its own, through a
// gamedata.Client whose cache and rate limiter keep the polls polite, and
// serves what the last poll read as Prometheus metrics. A scrape reads a
// snapshot and never sends a request.
package exporter
