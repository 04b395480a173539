package exporter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/prometheus/client_golang/prometheus"
)

// Exporter polls the service on its own interval and serves what the last
// poll read as Prometheus metrics; a scrape never sends a request.
type Exporter struct {
	cfg      Config
	log      *slog.Logger
	client   *gamedata.Client
	web      webConfig
	sources  []source
	registry *prometheus.Registry

	snap atomic.Pointer[snapshot]

	pollMu sync.Mutex // one poll at a time
	logged map[string]string

	mu     sync.Mutex // guards the health below
	health health

	// wrap, when set, wraps the handler Serve serves: a test's hook to
	// see scrapes arrive.
	wrap func(http.Handler) http.Handler
}

// New returns an exporter that polls through c, whose cache makes an
// unchanged page cost a 304 and whose rate limiter every poll waits on. It
// sends nothing until Poll or Serve.
func New(c *gamedata.Client, cfg Config) (*Exporter, error) {
	if c == nil {
		return nil, errors.New("exporter: nil client")
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	web, err := readWebConfig(cfg.WebConfigFile)
	if err != nil {
		return nil, err
	}
	e := &Exporter{cfg: cfg, log: cfg.logger(), client: c, web: web, sources: sources(c, &cfg),
		registry: prometheus.NewRegistry(), logged: make(map[string]string)}
	e.snap.Store(&snapshot{parts: make([]part, len(e.sources))})
	if err := e.registry.Register(collector{current: e.current, health: e.healthNow, client: c}); err != nil {
		return nil, err
	}
	return e, nil
}

// Registry returns the registry the exporter's metrics are gathered from.
func (e *Exporter) Registry() *prometheus.Registry { return e.registry }

// errPollDeadline is the cause of a poll's context ending at its
// deadline.
var errPollDeadline = errors.New("the poll's deadline passed")

// Poll reads every source once and replaces the metrics with what it
// read. A poll has a deadline, one interval (cfg.Every) after it starts:
// a source still unread then fails, as does every source after it, so a
// service that stalls or trickles a body fails a poll rather than
// holding it. A source that fails keeps what its last good poll read
// until that is more than staleIntervals intervals old, counted from when
// it was read, whenever a poll ends or a scrape comes; a package or server
// that the service no longer knows (404) loses its series. Poll returns
// the failures, joined, or ctx's error when ctx ended, in which case
// nothing changes.
func (e *Exporter) Poll(ctx context.Context) error {
	e.pollMu.Lock()
	defer e.pollMu.Unlock()
	start := e.cfg.clock()
	pollCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	defer e.cfg.after(e.cfg.Every, func() { cancel(errPollDeadline) })()
	tried := &attempts{}
	parts := slices.Clone(e.snap.Load().parts)
	var errs []error
	for i, s := range e.sources {
		var p part
		err := context.Cause(pollCtx)
		if err == nil {
			p, err = s.fetch(withAttempts(pollCtx, tried))
		}
		if err != nil && ctx.Err() == nil {
			err = said(err, errors.Is(context.Cause(pollCtx), errPollDeadline), e.cfg.Every, tried.lastFailure())
		}
		switch {
		case err == nil:
			p.at = e.cfg.clock()
			parts[i] = p
			if s.record {
				e.logChange("gone "+s.name, "", slog.LevelInfo, "the service knows "+s.name+" again")
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case s.record && errors.Is(err, gamedata.ErrNotFound):
			e.logChange("gone "+s.name, "gone", slog.LevelWarn, "the service does not know "+s.name+"; it has no series", "error", err)
			parts[i] = part{at: e.cfg.clock()}
		default:
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
			e.log.Warn("poll failed", "source", s.name, "error", err)
		}
	}
	snap, rep := e.build(parts)
	e.snap.Store(snap)
	e.report(rep)
	err := errors.Join(errs...)
	e.ended(start, err)
	return err
}

// build makes the snapshot of parts as they are now, without what has
// grown stale.
func (e *Exporter) build(parts []part) (*snapshot, report) {
	parts, staleAt := fresh(parts, e.cfg.clock(), staleIntervals*e.cfg.Every)
	snap, rep := build(parts, e.sourceNames(), e.cfg.MaxSeries)
	snap.staleAt = staleAt
	return snap, rep
}

// current is the snapshot a scrape serves: the last poll's, built again
// without a part that has grown stale since, so that what a failing or
// hung poll kept goes when it is more than staleIntervals intervals old,
// not when some later poll happens to end. What the rebuild leaves out
// is logged by the next poll.
func (e *Exporter) current() *snapshot {
	s := e.snap.Load()
	if s.staleAt.IsZero() || !e.cfg.clock().After(s.staleAt) {
		return s
	}
	rebuilt, _ := e.build(s.parts)
	if !e.snap.CompareAndSwap(s, rebuilt) {
		return e.snap.Load() // a poll ended meanwhile: its snapshot is newer
	}
	return rebuilt
}

// sourceNames are the names of the sources, in their order.
func (e *Exporter) sourceNames() []string {
	names := make([]string, len(e.sources))
	for i, s := range e.sources {
		names[i] = s.name
	}
	return names
}

// ended records a poll that started at start and failed with err (nil
// for none).
func (e *Exporter) ended(start time.Time, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	recovered := !e.health.polled || !e.health.up
	e.health.polled = true
	e.health.up = err == nil
	e.health.duration = e.cfg.clock().Sub(start)
	if err != nil {
		e.health.errors++
		return
	}
	e.health.lastSuccess, e.health.succeeded = start, start.Add(e.health.duration)
	if recovered {
		e.log.Info("poll succeeded", "series", len(e.snap.Load().metrics), "took", e.health.duration)
	}
}

// report logs what a build left out, each condition when it changes, so
// that a lasting one is one line and not one a poll.
func (e *Exporter) report(rep report) {
	if rep.dropped > 0 || len(rep.cut) > 0 {
		e.logChange("cap", "reached", slog.LevelWarn,
			fmt.Sprintf("--max-series %d reached: the entries beyond it are not exported; raise --max-series or choose a smaller slice (--kind, --filter, --top)", e.cfg.MaxSeries),
			"series", rep.series, "entries_not_exported", rep.dropped, "walks_stopped", strings.Join(rep.cut, "; "))
	} else {
		e.logChange("cap", "", slog.LevelInfo, "the series are below --max-series again", "series", rep.series)
	}
	e.logChange("collisions", strings.Join(rep.collisions, "\x00"), slog.LevelWarn,
		"entries whose labels, sanitized, are another entry's are not exported",
		"entries", len(rep.collisions), "examples", examples(rep.collisions))
	e.logChange("skipped", strings.Join(rep.skipped, "\x00"), slog.LevelWarn,
		"numeric members with no metric name of their own (nothing left of the name, too long, or the name of another) are not exported",
		"members", len(rep.skipped), "examples", examples(rep.skipped))
}

// logChange logs msg when the state of what changes from the last call;
// an empty state is the normal one, logged only when it returns.
func (e *Exporter) logChange(what, state string, level slog.Level, msg string, args ...any) {
	was, ok := e.logged[what]
	if (!ok && state == "") || was == state {
		e.logged[what] = state
		return
	}
	e.logged[what] = state
	e.log.Log(context.Background(), level, msg, args...)
}

// examples are a few of names, for a log line.
func examples(names []string) string {
	return strings.Join(names[:min(len(names), 5)], ", ")
}

// Run polls at once and then every cfg.Every until ctx ends, and returns
// nil then. A poll that takes longer than the interval is followed by the
// next at once, never by a burst. Until a poll has succeeded in full, a
// --kind that the service does not list ends Run with its *KindError: an
// exporter that polls a typo would export another slice than the one
// asked for, or nothing, for ever.
func (e *Exporter) Run(ctx context.Context) error {
	t := time.NewTicker(e.cfg.Every)
	defer t.Stop()
	for {
		// Other failures are logged and counted; the next poll tries again.
		var kindErr *KindError
		if err := e.Poll(ctx); errors.As(err, &kindErr) && !e.succeeded() {
			return kindErr
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// succeeded reports whether a poll has succeeded in full.
func (e *Exporter) succeeded() bool {
	return !e.healthNow().lastSuccess.IsZero()
}

// healthNow is the exporter's health as the last poll left it.
func (e *Exporter) healthNow() health {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.health
}
