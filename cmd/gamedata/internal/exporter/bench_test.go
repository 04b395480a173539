package exporter

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// discard is a ResponseWriter that keeps nothing but the size.
type discard struct {
	h http.Header
	n int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
func (d *discard) WriteHeader(int)             {}

// BenchmarkScrape serves /metrics of an exporter holding 10,000 series of
// packages (the default --max-series, filled from the twin), beside the
// baseline: the same number of series as plain registered gauges, served
// by the same promhttp handler. Neither is compressed.
func BenchmarkScrape(b *testing.B) {
	twin := newTwin(b, gamedatatest.WithSize(2400, 0, 30))
	e, _, _ := newExporter(b, newClient(b, twin.URL), Config{MaxSeries: DefaultMaxSeries})
	poll(b, e)
	mfs, err := e.Registry().Gather()
	if err != nil {
		b.Fatal(err)
	}
	series := 0
	for _, mf := range mfs {
		series += len(mf.GetMetric())
	}

	baseline := prometheus.NewRegistry()
	gauges := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "gamedata_package_players", Help: packagePlayers.help}, []string{"kind", "ident"})
	baseline.MustRegister(gauges)
	for i := range series {
		gauges.WithLabelValues("game", "package-"+strconv.Itoa(i)).Set(float64(i))
	}

	for _, bc := range []struct {
		name string
		h    http.Handler
	}{
		{"exporter", e.Handler()},
		{"baseline-gauges", promhttp.HandlerFor(baseline, promhttp.HandlerOpts{})},
	} {
		b.Run(bc.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				w.n = 0
				bc.h.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(series), "series")
			b.ReportMetric(float64(w.n), "bytes/scrape")
		})
	}
}
