package peers

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	gojson "github.com/goccy/go-json"

	"github.com/gamedata-go/gamedata"
)

// BenchmarkActivityDecode decodes the twin's 100,000-point activity
// history, without the network, with the SDK's decoder, encoding/json and
// goccy/go-json, each into the natural untyped shape ([][]any) and into
// typed points ([][7]*float64, a nil pointer for null). Each round runs
// every decoder once, in turn, so load on the machine weighs on all
// alike; the metrics are each decoder's median time and allocations over
// the rounds, and its median time over the SDK's.
//
//	go test -C peers -run '^$' -bench ActivityDecode -benchtime 20x .
func BenchmarkActivityDecode(b *testing.B) {
	twin := newTwin(b, benchPackages, benchPoints)
	body := twin.Catalog().ActivityHistory("all")
	want, err := jsonHistory(body)
	if err != nil {
		b.Fatal(err)
	}
	decoders := []struct {
		name   string
		decode func([]byte) (historySummary, error)
	}{
		{"sdk", func(b []byte) (historySummary, error) {
			var h gamedata.ActivityHistory
			if err := h.UnmarshalJSON(b); err != nil {
				return historySummary{}, err
			}
			return sdkHistory(&h)
		}},
		{"encoding-json-any", jsonHistory},
		{"encoding-json-typed", typed(json.Unmarshal)},
		{"go-json-any", untyped(gojson.Unmarshal)},
		{"go-json-typed", typed(gojson.Unmarshal)},
	}
	for _, d := range decoders {
		if got, err := d.decode(body); err != nil || got != want {
			b.Fatalf("%s decoded %+v, %v; the twin served %+v", d.name, got, err, want)
		}
	}
	times := make([][]time.Duration, len(decoders))
	allocs := make([][]uint64, len(decoders))
	var ms runtime.MemStats
	for b.Loop() {
		for i, d := range decoders {
			runtime.ReadMemStats(&ms)
			before, start := ms.Mallocs, time.Now()
			if _, err := d.decode(body); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(start))
			runtime.ReadMemStats(&ms)
			allocs[i] = append(allocs[i], ms.Mallocs-before)
		}
	}
	sdk := medianOf(times[0])
	for i, d := range decoders {
		t := medianOf(times[i])
		b.ReportMetric(t.Seconds()*1e3, d.name+"-ms")
		b.ReportMetric(float64(medianOf(allocs[i])), d.name+"-allocs")
		if i > 0 {
			b.ReportMetric(float64(t)/float64(sdk), d.name+"/sdk")
		}
	}
}

func medianOf[T time.Duration | uint64](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// untyped decodes with unmarshal into the natural shape.
func untyped(unmarshal func([]byte, any) error) func([]byte) (historySummary, error) {
	return func(b []byte) (historySummary, error) {
		var h rawHistory
		if err := unmarshal(b, &h); err != nil {
			return historySummary{}, err
		}
		return anyHistory(h.Points)
	}
}

// typedHistory is the history decoded into typed points: a fixed seven
// numbers a point, nil for null.
type typedHistory struct {
	Points          [][7]*float64 `json:"points"`
	PartialCoverage []int64       `json:"partialCoverage"`
}

// typed decodes with unmarshal into typed points.
func typed(unmarshal func([]byte, any) error) func([]byte) (historySummary, error) {
	return func(b []byte) (historySummary, error) {
		var h typedHistory
		if err := unmarshal(b, &h); err != nil {
			return historySummary{}, err
		}
		return summarizeHistory(len(h.Points), func(i int) (pointSummary, error) {
			pt := h.Points[i]
			if pt[0] == nil {
				return pointSummary{}, fmt.Errorf("point %d has no time", i)
			}
			p := pointSummary{MS: int64(*pt[0]), Null: pt[1] == nil}
			if pt[1] != nil {
				p.Players = *pt[1]
			}
			return p, nil
		})
	}
}
