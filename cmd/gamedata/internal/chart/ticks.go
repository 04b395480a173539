package chart

import (
	"math"
	"time"

	"gonum.org/v1/plot"
)

// Time ticks fall on round times, in UTC: whole hours, midnights, the
// first of a month; a step is chosen so that a chart has between four
// and eight labels where the span allows, with unlabelled ticks between.

// tickSteps are the steps between labelled ticks, shortest first, each
// with the unlabelled step between its labels and its label's layout.
var tickSteps = []struct {
	step, minor time.Duration
	layout      string
}{
	{time.Hour, 15 * time.Minute, "01-02\n15:04"},
	{2 * time.Hour, 30 * time.Minute, "01-02\n15:04"},
	{3 * time.Hour, time.Hour, "01-02\n15:04"},
	{6 * time.Hour, time.Hour, "01-02\n15:04"},
	{12 * time.Hour, 3 * time.Hour, "01-02\n15:04"},
	{24 * time.Hour, 6 * time.Hour, "2006-01-02"},
	{48 * time.Hour, 12 * time.Hour, "2006-01-02"},
	{7 * 24 * time.Hour, 24 * time.Hour, "2006-01-02"},
	{14 * 24 * time.Hour, 24 * time.Hour, "2006-01-02"},
}

// maxLabels is the most labelled ticks a time axis has.
const maxLabels = 8

// timeTicks are the ticks of a time axis from min to max, in Unix seconds.
func timeTicks(min, max float64) []plot.Tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return nil
	}
	span := time.Duration((max - min) * float64(time.Second))
	for _, s := range tickSteps {
		if span/s.step <= maxLabels {
			return stepTicks(min, max, s.step, s.minor, s.layout)
		}
	}
	return monthTicks(min, max)
}

// stepTicks are ticks at every multiple of minor from min to max, those
// at a multiple of step labelled. Unix time counts days of exactly 86,400
// seconds from a midnight, so a multiple of a day is a midnight in UTC.
func stepTicks(min, max float64, step, minor time.Duration, layout string) []plot.Tick {
	var ticks []plot.Tick
	m := minor.Seconds()
	for v := math.Ceil(min/m) * m; v <= max; v += m {
		t := plot.Tick{Value: v}
		if math.Mod(v, step.Seconds()) == 0 {
			t.Label = time.Unix(int64(v), 0).UTC().Format(layout)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// monthTicks label the first of every month, or of every few months on a
// long span, with the first of the others unlabelled.
func monthTicks(min, max float64) []plot.Tick {
	from := time.Unix(int64(min), 0).UTC()
	to := time.Unix(int64(max), 0).UTC()
	months := (to.Year()-from.Year())*12 + int(to.Month()-from.Month()) + 1
	every := 1
	for _, n := range []int{1, 2, 3, 6, 12, 24, 60, 120} {
		every = n
		if months/n <= maxLabels {
			break
		}
	}
	var ticks []plot.Tick
	t := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if t.Before(from) {
		t = t.AddDate(0, 1, 0)
	}
	for ; !t.After(to); t = t.AddDate(0, 1, 0) {
		tick := plot.Tick{Value: float64(t.Unix())}
		if (t.Year()*12+int(t.Month())-1)%every == 0 {
			tick.Label = t.Format("2006-01")
		}
		ticks = append(ticks, tick)
	}
	return ticks
}
