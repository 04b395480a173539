package exporter

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	dto "github.com/prometheus/client_model/go"
)

// newTwin starts a twin of the service, closed when the test ends.
func newTwin(t testing.TB, opts ...gamedatatest.Option) *gamedatatest.Server {
	t.Helper()
	twin := gamedatatest.NewServer(opts...)
	t.Cleanup(twin.Close)
	return twin
}

// newClient is a client of baseURL as the command makes one, with a rate
// that keeps the tests quick and no retries, so a fault fails a poll, and
// then opts.
func newClient(t testing.TB, baseURL string, opts ...gamedata.Option) *gamedata.Client {
	t.Helper()
	c, err := gamedata.NewClient(baseURL, append([]gamedata.Option{gamedata.WithRateLimit(1000, 1), gamedata.WithRetryMax(0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// logBuffer collects an exporter's log lines, safe for the poller's
// goroutine.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// newExporter makes an exporter of cfg over c, with Every defaulted, a
// log the test can read, and a clock the test moves.
func newExporter(t testing.TB, c *gamedata.Client, cfg Config) (*Exporter, *logBuffer, *fakeClock) {
	t.Helper()
	logs := &logBuffer{}
	clock := &fakeClock{now: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
	if cfg.Every == 0 {
		cfg.Every = time.Minute
	}
	if cfg.MaxSeries == 0 {
		cfg.MaxSeries = DefaultMaxSeries
	}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	cfg.now = clock.Now
	cfg.afterFunc = clock.AfterFunc
	e, err := New(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e, logs, clock
}

// poll polls once and fails the test on an error.
func poll(t testing.TB, e *Exporter) {
	t.Helper()
	if err := e.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// fakeClock is a clock that moves only when a test advances it; a
// function given to AfterFunc runs in Advance, once the clock reaches its
// time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.stopped && !t.at.After(c.now) {
			t.stopped = true
			due = append(due, t.f)
		}
	}
	c.timers = slices.DeleteFunc(c.timers, func(t *fakeTimer) bool { return t.stopped })
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

// guard bounds a test that would otherwise hang on a regression (a poll
// that waits for a body the twin holds): it only turns that hang into a
// failure, and never decides a passing run.
func guard(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// samples gathers family name from e and returns its samples keyed by
// their labels, written name=value and joined by commas in name order.
func samples(t testing.TB, e *Exporter, name string) map[string]float64 {
	t.Helper()
	mfs, err := e.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]float64)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			out[labelKey(m.GetLabel())] = value(mf.GetType(), m)
		}
	}
	return out
}

func labelKey(labels []*dto.LabelPair) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = l.GetName() + "=" + l.GetValue()
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func value(t dto.MetricType, m *dto.Metric) float64 {
	if t == dto.MetricType_COUNTER {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

// pkgKey is the samples key of a package's series.
func pkgKey(kind, ident string) string { return "ident=" + ident + ",kind=" + kind }

// scrape gets path from the exporter's handler.
func scrape(t testing.TB, e *Exporter, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

// requestsSince returns the twin's requests after the first n, as
// "status path" lines.
func requestsSince(twin *gamedatatest.Server, n int) []string {
	var out []string
	for _, r := range twin.Requests()[n:] {
		out = append(out, http.StatusText(r.Status)+" "+r.Path)
	}
	slices.Sort(out)
	return out
}
