// Package chart draws players over time, to a PNG or SVG file (gonum
// plot) or as text in a terminal (asciigraph): averages as a line,
// snapshots as dots, a gap where players are unavailable, and partial
// coverage marked as a lower bound. Time is labelled at round times in UTC.
package chart

import (
	"image/color"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Sample is one point of a chart: players at a time, or unavailable.
// ActivitySamples and HistorySamples make them.
type Sample struct {
	at      time.Time
	players float64
	ok      bool // false: unavailable, drawn as a gap, never as 0
	average bool // an average over an interval, not a snapshot
	partial bool // partial coverage: a lower bound
}

// ActivitySamples are an activity history's points, averages and
// snapshots as the service marked them.
func ActivitySamples(h *gamedata.ActivityHistory) []Sample {
	out := make([]Sample, len(h.Points))
	for i, p := range h.Points {
		v, ok := p.Players.Get()
		out[i] = Sample{at: p.Time, players: v, ok: ok, average: p.Aggregation == gamedata.AggregationAverage, partial: p.PartialCoverage}
	}
	return out
}

// HistorySamples are an analytics history's entries; each is an average
// over its day.
func HistorySamples(history []gamedata.HistoryEntry) []Sample {
	out := make([]Sample, len(history))
	for i, h := range history {
		v, ok := h.Metric("players").Get()
		out[i] = Sample{at: h.CapturedAt, players: v, ok: ok, average: true, partial: h.PartialCoverage}
	}
	return out
}

// The colours of a chart.
var (
	averageColor  = color.RGBA{B: 200, A: 255}
	snapshotColor = color.RGBA{R: 200, A: 255}
	partialColor  = color.NRGBA{R: 230, G: 140, A: 70} // a band the line shows through
)

// File draws samples to a PNG or SVG file, by path's extension in
// any case. Averages are a line, an average between two gaps a dot of the
// line's colour (a line of one point is not drawn), snapshots red dots;
// partial coverage is a band behind the line over the times it covers,
// which the legend calls a lower bound.
func File(path, title string, samples []Sample) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time (UTC)"
	p.Y.Label.Text = "players"
	p.X.Tick.Marker = plot.TickerFunc(timeTicks)
	p.Y.Min = 0
	top := 0.0
	for _, s := range samples {
		top = max(top, s.players)
	}
	p.Y.Max = 1.3 * max(top, 1) // room above the data for the legend
	p.Add(plotter.NewGrid())

	if err := addPartialBands(p, samples); err != nil {
		return err
	}
	runs, isolated := averageRuns(samples)
	for i, run := range runs {
		line, err := plotter.NewLine(run)
		if err != nil {
			return err
		}
		line.Color = averageColor
		p.Add(line)
		if i == 0 {
			p.Legend.Add("average", line)
		}
	}
	if err := addScatter(p, isolated, "", averageColor); err != nil {
		return err
	}
	var snapshots plotter.XYs
	for _, s := range samples {
		if s.ok && !s.average {
			snapshots = append(snapshots, plotter.XY{X: float64(s.at.Unix()), Y: s.players})
		}
	}
	if err := addScatter(p, snapshots, "snapshot", snapshotColor); err != nil {
		return err
	}
	p.Legend.Top = true
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	wt, err := p.WriterTo(10*vg.Inch, 4*vg.Inch, format)
	if err != nil {
		return err
	}
	return writeFile(path, wt)
}

// addPartialBands shades, behind the line, each run of samples with
// partial coverage: from half a step before its first to half a step
// after its last, the full height of the chart.
func addPartialBands(p *plot.Plot, samples []Sample) error {
	if len(samples) < 2 {
		return nil
	}
	half := float64(samples[len(samples)-1].at.Unix()-samples[0].at.Unix()) / float64(len(samples)-1) / 2
	legend := false
	for i := 0; i < len(samples); {
		if !samples[i].partial {
			i++
			continue
		}
		j := i
		for j+1 < len(samples) && samples[j+1].partial {
			j++
		}
		x0, x1 := float64(samples[i].at.Unix())-half, float64(samples[j].at.Unix())+half
		band, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: p.Y.Min}, {X: x1, Y: p.Y.Min}, {X: x1, Y: p.Y.Max}, {X: x0, Y: p.Y.Max}})
		if err != nil {
			return err
		}
		band.Color = partialColor
		band.LineStyle.Width = 0
		p.Add(band)
		if !legend {
			p.Legend.Add("partial coverage: values are a lower bound", band)
			legend = true
		}
		i = j + 1
	}
	return nil
}

// addScatter draws xys as dots of colour c, named in the legend unless
// name is empty.
func addScatter(p *plot.Plot, xys plotter.XYs, name string, c color.Color) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle.Shape, s.GlyphStyle.Color, s.GlyphStyle.Radius = draw.CircleGlyph{}, c, vg.Points(1.5)
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
	return nil
}

// averageRuns are the runs of available averages between gaps, each drawn
// as its own line so that a gap stays a gap, and the averages alone
// between two gaps, which a line of one point would not show.
func averageRuns(samples []Sample) (runs []plotter.XYs, isolated plotter.XYs) {
	var run plotter.XYs
	end := func() {
		switch len(run) {
		case 0:
		case 1:
			isolated = append(isolated, run[0])
		default:
			runs = append(runs, run)
		}
		run = nil
	}
	for _, s := range samples {
		if !s.ok || !s.average {
			end()
			continue
		}
		run = append(run, plotter.XY{X: float64(s.at.Unix()), Y: s.players})
	}
	end()
	return runs, isolated
}

// writeFile writes what wt writes to path.
func writeFile(path string, wt io.WriterTo) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = wt.WriteTo(f)
	return err
}
