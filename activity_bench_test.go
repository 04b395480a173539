package gamedata

import (
	"context"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"
)

// BenchmarkActivityOccasional measures Activity.History as a poller makes
// it, once a minute: after unrelated garbage was made and collected. Each
// round times, one after another, a warm call (right after another), an
// occasional call (after the garbage and runtime.GC), a call after the
// collected memory was also given back to the operating system
// (debug.FreeOSMemory, what the runtime's scavenger does to an idle
// process within minutes) and net/http + encoding/json decoding the same
// body; the metrics are the medians of the rounds and their ratios. With
// load=busy a CPU-bound process runs beside it for the whole benchmark.
//
//	go test -run '^$' -bench ActivityOccasional -benchtime 15x .
func BenchmarkActivityOccasional(b *testing.B) {
	body := activityBody(100_000)
	srv := staticServer(b, body, "")
	for _, load := range []string{"quiet", "busy"} {
		b.Run("load="+load, func(b *testing.B) {
			if load == "busy" {
				spin(b)
			}
			c := benchClient(b, srv.URL)
			call := func() {
				h, err := c.Activity.History(context.Background(), &ActivityOptions{Range: "all"})
				if err != nil || len(h.Points) != 100_000 {
					b.Fatal(err)
				}
			}
			baseline := func() {
				var v struct {
					Points [][]any `json:"points"`
				}
				rawGet(b, srv.URL+"/api/activity-history?range=all", &v)
				if len(v.Points) != 100_000 {
					b.Fatal("short")
				}
			}
			var warm, occasional, returned, raw []time.Duration
			for b.Loop() {
				call()
				warm = append(warm, timed(call))
				unrelatedGarbage()
				runtime.GC()
				occasional = append(occasional, timed(call))
				unrelatedGarbage()
				debug.FreeOSMemory()
				returned = append(returned, timed(call))
				raw = append(raw, timed(baseline))
			}
			w, o, r, e := median(warm), median(occasional), median(returned), median(raw)
			b.ReportMetric(w.Seconds()*1e3, "warm-ms")
			b.ReportMetric(o.Seconds()*1e3, "occasional-ms")
			b.ReportMetric(r.Seconds()*1e3, "returned-ms")
			b.ReportMetric(e.Seconds()*1e3, "encoding-json-ms")
			b.ReportMetric(float64(o)/float64(w), "occasional/warm")
			b.ReportMetric(float64(e)/float64(o), "encoding-json/occasional")
		})
	}
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// garbage keeps unrelatedGarbage's allocations from being optimized away.
var garbage [][]byte

// unrelatedGarbage is what a program does between two polls: 64 MB in
// small allocations, none kept.
func unrelatedGarbage() {
	for range 64 << 10 {
		garbage = append(garbage, make([]byte, 1<<10))
		if len(garbage) == 1024 {
			garbage = garbage[:0]
		}
	}
	garbage = nil
}

// spin runs a CPU-bound process beside the benchmark until it ends.
func spin(b *testing.B) {
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
}
