package exporter

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
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

// BenchmarkConcurrentScrapes sends 300 scrapes at once to /metrics of an
// exporter holding 10,000 series (about 1 MB of exposition), over real
// connections, and reports the process's peak resident memory during
// each burst: the exporter's handler (maxScrapesInFlight at once, 503
// beyond) beside the baseline, promhttp without a bound over the same
// registry. The two alternate, round by round; before each burst the heap
// is returned to the system and the kernel's peak reset
// (/proc/self/clear_refs), so a peak is that burst's own. Linux only.
func BenchmarkConcurrentScrapes(b *testing.B) {
	const scrapers = 300
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("the peak resident memory cannot be reset here: %v", err)
	}
	twin := newTwin(b, gamedatatest.WithSize(2400, 0, 30))
	e, _, _ := newExporter(b, newClient(b, twin.URL), Config{MaxSeries: DefaultMaxSeries})
	poll(b, e)
	variants := []struct {
		name string
		srv  *httptest.Server
	}{
		{"exporter", httptest.NewServer(e.Handler())},
		{"baseline-unbounded", httptest.NewServer(promhttp.HandlerFor(e.Registry(), promhttp.HandlerOpts{}))},
	}
	peaks := make([]float64, len(variants))
	refused := make([]int, len(variants))
	var size int64
	for b.Loop() {
		for i, v := range variants {
			debug.FreeOSMemory()
			if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
				b.Fatal(err)
			}
			n, sz := burst(b, v.srv.URL+"/metrics", scrapers)
			refused[i] += n
			size = max(size, sz)
			peaks[i] = max(peaks[i], peakRSS(b))
		}
	}
	for i, v := range variants {
		v.srv.Close()
		b.ReportMetric(peaks[i]/(1<<20), v.name+"-peak-MB")
		b.ReportMetric(float64(refused[i])/float64(b.N), v.name+"-503/burst")
	}
	b.ReportMetric(peaks[0]/peaks[1], "peak-ratio")
	b.ReportMetric(float64(size), "bytes/scrape")
}

// burst sends n scrapes of url at once, each on its own connection, and
// returns how many were refused 503 and the largest body read.
func burst(b *testing.B, url string, n int) (refused int, size int64) {
	tr := &http.Transport{DisableKeepAlives: true, DisableCompression: true}
	defer tr.CloseIdleConnections()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			resp, err := (&http.Client{Transport: tr}).Get(url)
			if err != nil {
				b.Error(err)
				return
			}
			sz, _ := io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			mu.Lock()
			defer mu.Unlock()
			if resp.StatusCode == http.StatusServiceUnavailable {
				refused++
			}
			size = max(size, sz)
		})
	}
	close(start)
	wg.Wait()
	return refused, size
}

// peakRSS is the process's peak resident memory since the last reset, in
// bytes, from /proc/self/status.
func peakRSS(b *testing.B) float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := bytes.Cut(status, []byte("VmHWM:"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.Atoi(string(bytes.TrimSuffix(bytes.TrimSpace(line), []byte(" kB"))))
	if err != nil {
		b.Fatalf("VmHWM in /proc/self/status: %v", err)
	}
	return float64(kb) * 1024
}

// BenchmarkHeldAfterPoll polls 800 packages with 100 KB titles, as the
// issue that bounded it did, and reports the bytes the exporter holds
// after the poll, an entry, beside the baseline of the bytes the service
// sent an entry.
func BenchmarkHeldAfterPoll(b *testing.B) {
	const entries = 800
	var held, sent int64
	for b.Loop() {
		h, s := heldAfterPoll(b, entries)
		held, sent = max(held, h), s
	}
	b.ReportMetric(float64(held)/entries, "held-B/entry")
	b.ReportMetric(float64(sent)/entries, "sent-B/entry")
	b.ReportMetric(float64(held)/float64(sent), "held/sent")
}
