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
// that keeps the tests quick and no retries, so a fault fails a poll.
func newClient(t testing.TB, baseURL string) *gamedata.Client {
	t.Helper()
	c, err := gamedata.NewClient(baseURL, gamedata.WithRateLimit(1000, 1), gamedata.WithRetryMax(0))
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
	cfg.Every = max(cfg.Every, time.Minute)
	if cfg.MaxSeries == 0 {
		cfg.MaxSeries = DefaultMaxSeries
	}
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	cfg.now = clock.Now
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

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
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
