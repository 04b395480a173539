package gamedata

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"golang.org/x/time/rate"
)

// Benchmarks of the SDK against a baseline measured in the same run.
// Run them with: go test -run '^$' -bench . -count 5 .
// BENCHMARKS.md reports the ratios.

// staticServer serves body, a fixture, to every request, with
// cacheControl as its Cache-Control when it is not empty: the baselines
// decode the same bytes, which the twin, whose records are its own, does
// not serve, and nothing but the client's work weighs in the ratios. It
// sends a Content-Length, as the twin and a server of a stored document
// do.
func staticServer(b *testing.B, body []byte, cacheControl string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		if cacheControl != "" {
			w.Header().Set("Cache-Control", cacheControl)
		}
		w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv
}

func benchClient(b *testing.B, base string, opts ...Option) *Client {
	c, err := NewClient(base, append([]Option{WithRateLimit(rate.Inf, 0)}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// rawGet is the baseline: plain net/http and encoding/json.
func rawGet(b *testing.B, url string, v any) {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkActivityEndToEnd(b *testing.B) {
	body := activityBody(100_000)
	srv := staticServer(b, body, "")
	b.Run("sdk", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			h, err := c.Activity.History(context.Background(), &ActivityOptions{Range: "all"})
			if err != nil || len(h.Points) != 100_000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline=net-http-encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var v struct {
				Points [][]any `json:"points"`
			}
			rawGet(b, srv.URL+"/api/activity-history?range=all", &v)
			if len(v.Points) != 100_000 {
				b.Fatal("short")
			}
		}
	})
}

func BenchmarkPackageGet(b *testing.B) {
	body, err := os.ReadFile("testdata/package.json")
	if err != nil {
		b.Fatal(err)
	}
	srv := staticServer(b, body, "")
	b.Run("sdk", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		b.ReportAllocs()
		for b.Loop() {
			p, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
			if err != nil || p.Ident != "space-miner" {
				b.Fatal(err)
			}
		}
	})
	// A fresh cache hit, to compare with "sdk", a loopback request of the
	// same record.
	b.Run("cached", func(b *testing.B) {
		// The same bytes, storable for an hour.
		cacheable := staticServer(b, body, "max-age=3600")
		c := benchClient(b, cacheable.URL)
		b.ReportAllocs()
		for b.Loop() {
			p, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
			if err != nil || p.Ident != "space-miner" {
				b.Fatal(err)
			}
		}
		if s := c.Stats(); s.Requests != 1 {
			b.Fatalf("%d requests, want 1", s.Requests)
		}
	})
	b.Run("baseline=net-http-encoding-json-map", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v map[string]any
			rawGet(b, srv.URL+"/api/packages/game/space-miner", &v)
			if v["ident"] != "space-miner" {
				b.Fatal("wrong record")
			}
		}
	})
}

// BenchmarkWalkPrefetch walks 20 pages from a service that takes 20 ms a
// page, while the caller spends 20 ms on each page.
func BenchmarkWalkPrefetch(b *testing.B) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(200, 0, 0), gamedatatest.WithLatency(20*time.Millisecond))
	b.Cleanup(twin.Close)
	for _, bc := range []struct {
		name     string
		prefetch int
	}{{"prefetch=1", 1}, {"baseline=prefetch-off", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			c := benchClient(b, twin.URL, WithPrefetch(bc.prefetch))
			for b.Loop() {
				n := 0
				for e, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 10}}, nil) {
					if err != nil {
						b.Fatal(err)
					}
					if n++; n%10 == 0 && e.Ident != "" {
						time.Sleep(20 * time.Millisecond) // the caller's work on a page
					}
				}
				if n != 200 {
					b.Fatalf("walked %d entries", n)
				}
			}
		})
	}
}

// BenchmarkFanOut fetches 500 package records from a service that takes
// 20 ms a request.
func BenchmarkFanOut(b *testing.B) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(500, 0, 0), gamedatatest.WithLatency(20*time.Millisecond))
	b.Cleanup(twin.Close)
	var refs []PackageRef
	for _, e := range twin.Catalog().Packages {
		refs = append(refs, PackageRef{Kind: e.Kind, Ident: e.Ident})
	}
	b.Run("getmany-concurrency=8", func(b *testing.B) {
		c := benchClient(b, twin.URL)
		for b.Loop() {
			n := 0
			for _, err := range c.Packages.GetMany(context.Background(), refs, 8) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
			if n != len(refs) {
				b.Fatalf("fetched %d", n)
			}
		}
	})
	b.Run("baseline=sequential-loop", func(b *testing.B) {
		c := benchClient(b, twin.URL)
		for b.Loop() {
			for _, r := range refs {
				if _, err := c.Packages.Get(context.Background(), r.Kind, r.Ident); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("getmany-limit=50/s-burst=1", func(b *testing.B) {
		var mu sync.Mutex
		var sent []time.Time
		// Under the limiter: the times requests really leave.
		record := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			sent = append(sent, time.Now())
			mu.Unlock()
			return http.DefaultTransport.RoundTrip(r)
		})}
		c, err := NewClient(twin.URL, WithRateLimit(50, 1), WithHTTPClient(record))
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			sent = sent[:0]
			start := time.Now()
			for _, err := range c.Packages.GetMany(context.Background(), refs[:150], 8) {
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(150/time.Since(start).Seconds(), "req/s")
			b.ReportMetric(maxInWindow(sent, time.Second), "max-req-in-1s")
		}
	})
}

// maxInWindow is the most requests sent in any window of that length.
func maxInWindow(sent []time.Time, window time.Duration) float64 {
	best := 0
	for i := range sent {
		j := i
		for j < len(sent) && sent[j].Sub(sent[i]) < window {
			j++
		}
		best = max(best, j-i)
	}
	return float64(best)
}

// BenchmarkWalkHeap measures the heap in use while walking a directory:
// the walk holds a page or two, never the directory.
func BenchmarkWalkHeap(b *testing.B) {
	for _, bc := range []struct {
		name    string
		entries int
	}{{"entries=100000", 100_000}, {"baseline=entries=1000", 1000}} {
		b.Run(bc.name, func(b *testing.B) {
			srv := httptest.NewServer(syntheticDirectory(bc.entries, 100))
			defer srv.Close()
			c := benchClient(b, srv.URL)
			var ms runtime.MemStats
			for b.Loop() {
				// The server shares the heap: count only what the walk adds.
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.HeapInuse
				var peak uint64
				n := 0
				for _, err := range c.Dashboard.All(context.Background(), &DashboardOptions{ListOptions: ListOptions{PageSize: 100}}, nil) {
					if err != nil {
						b.Fatal(err)
					}
					// Ten samples in both walks, at the same points of each.
					if n++; n%(bc.entries/10) == bc.entries/20 {
						runtime.GC()
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse-min(ms.HeapInuse, before))
					}
				}
				if n != bc.entries {
					b.Fatalf("walked %d entries", n)
				}
				b.ReportMetric(float64(peak), "walk-heap-inuse-B")
			}
		})
	}
}

// syntheticDirectory serves n package entries, size to a page, making each
// page on the fly: unlike the twin, it holds no catalogue, so the heap
// measured is the client's.
func syntheticDirectory(n, size int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		buf := []byte(`{"items":[`)
		for i := (page - 1) * size; i < min(page*size, n); i++ {
			if i > (page-1)*size {
				buf = append(buf, ',')
			}
			buf = fmt.Appendf(buf, `{"kind":"game","ident":"g%07d","title":"Game %d","players":%d,"playersPeak":null}`, i, i, i%5000)
		}
		buf = fmt.Appendf(buf, `],"pagination":{"page":%d,"pageSize":%d,"hasNext":%t}}`, page, size, page*size < n)
		w.Write(buf)
	}
}

// BenchmarkAdaptiveRate runs a 500-request job (GetMany, concurrency 8)
// with a ceiling of 100/s against a twin that allows 30/s, adaptation on
// and off, and reports the throttled share and the time against the ideal
// 500/30 s.
func BenchmarkAdaptiveRate(b *testing.B) {
	for _, bc := range []struct {
		name  string
		adapt bool
	}{{"adaptive=on", true}, {"baseline=adaptive-off", false}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				twin := gamedatatest.NewServer(gamedatatest.WithSize(500, 0, 0), gamedatatest.WithRateLimit(30, 5))
				var refs []PackageRef
				for _, e := range twin.Catalog().Packages {
					refs = append(refs, PackageRef{Kind: e.Kind, Ident: e.Ident})
				}
				c, err := NewClient(twin.URL, WithRateLimit(100, 1), WithAdaptiveRate(bc.adapt), WithRetryMax(10))
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for _, err := range c.Packages.GetMany(context.Background(), refs, 8) {
					if err != nil {
						b.Fatal(err)
					}
				}
				elapsed := time.Since(start)
				twin.Close()
				s := c.Stats()
				b.ReportMetric(100*float64(s.Throttled)/float64(s.Requests), "throttled-%")
				b.ReportMetric(elapsed.Seconds()/(500/30.0), "x-ideal")
			}
		})
	}
}
