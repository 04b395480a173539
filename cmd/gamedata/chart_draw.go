package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/guptarohit/asciigraph"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// sample is one point of a chart: players at a time, or unavailable.
type sample struct {
	at      time.Time
	players float64
	ok      bool // false: unavailable, drawn as a gap, never as 0
	average bool // an average over an interval, not a snapshot
	partial bool // partial coverage: a lower bound
}

func activitySamples(h *gamedata.ActivityHistory) []sample {
	out := make([]sample, len(h.Points))
	for i, p := range h.Points {
		v, ok := p.Players.Get()
		out[i] = sample{at: p.Time, players: v, ok: ok, average: p.Aggregation == gamedata.AggregationAverage, partial: p.PartialCoverage}
	}
	return out
}

// historySamples are an analytics history's entries; each is an average
// over its day.
func historySamples(history []gamedata.HistoryEntry) []sample {
	out := make([]sample, len(history))
	for i, h := range history {
		v, ok := h.Metric("players").Get()
		out[i] = sample{at: h.CapturedAt, players: v, ok: ok, average: true, partial: h.PartialCoverage}
	}
	return out
}

// fileChart draws samples to a PNG or SVG file.
func fileChart(path, title string, samples []sample) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "time (UTC)"
	p.Y.Label.Text = "players"
	p.X.Tick.Marker = plot.TimeTicks{Format: "01-02\n15:04"}
	p.Y.Min = 0
	p.Add(plotter.NewGrid())

	var snapshots, partial plotter.XYs
	legend := false
	for _, run := range averageRuns(samples) {
		line, err := plotter.NewLine(run)
		if err != nil {
			return err
		}
		line.Color = color.RGBA{B: 200, A: 255}
		p.Add(line)
		if !legend {
			p.Legend.Add("average", line)
			legend = true
		}
	}
	for _, s := range samples {
		if !s.ok {
			continue
		}
		xy := plotter.XY{X: float64(s.at.Unix()), Y: s.players}
		if s.partial {
			partial = append(partial, xy)
		} else if !s.average {
			snapshots = append(snapshots, xy)
		}
	}
	if err := addScatter(p, snapshots, "snapshot", draw.CircleGlyph{}, color.RGBA{R: 200, A: 255}); err != nil {
		return err
	}
	if err := addScatter(p, partial, "partial coverage: at least", draw.TriangleGlyph{}, color.RGBA{R: 230, G: 140, A: 255}); err != nil {
		return err
	}
	p.Legend.Top = true
	top := 0.0
	for _, s := range samples {
		top = max(top, s.players)
	}
	p.Y.Max = 1.3 * top // room above the data for the legend
	return p.Save(10*vg.Inch, 4*vg.Inch, path)
}

func addScatter(p *plot.Plot, xys plotter.XYs, name string, glyph draw.GlyphDrawer, c color.Color) error {
	if len(xys) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle.Shape, s.GlyphStyle.Color, s.GlyphStyle.Radius = glyph, c, vg.Points(2)
	p.Add(s)
	p.Legend.Add(name, s)
	return nil
}

// averageRuns are the runs of available averages between gaps, each drawn
// as its own line so that a gap stays a gap.
func averageRuns(samples []sample) []plotter.XYs {
	var runs []plotter.XYs
	var run plotter.XYs
	for _, s := range samples {
		if !s.ok || !s.average {
			if len(run) > 0 {
				runs = append(runs, run)
				run = nil
			}
			continue
		}
		run = append(run, plotter.XY{X: float64(s.at.Unix()), Y: s.players})
	}
	if len(run) > 0 {
		runs = append(runs, run)
	}
	return runs
}

// terminalChart draws samples as text within width columns: players
// averaged into one column per bucket of time, a gap where none is
// available.
func terminalChart(w io.Writer, title string, samples []sample, width int) error {
	if len(samples) == 0 {
		_, err := fmt.Fprintln(w, title+": no points")
		return err
	}
	columns := min(width-12, len(samples)) // the axis labels take the rest
	values := make([]float64, columns)
	partial := 0
	for i := range values {
		lo, hi := i*len(samples)/columns, (i+1)*len(samples)/columns
		sum, n := 0.0, 0
		for _, s := range samples[lo:hi] {
			if s.ok {
				sum, n = sum+s.players, n+1
			}
			if s.partial {
				partial++
			}
		}
		values[i] = math.NaN()
		if n > 0 {
			values[i] = sum / float64(n)
		}
	}
	caption := fmt.Sprintf("%s, %s to %s UTC", title,
		samples[0].at.UTC().Format("01-02 15:04"), samples[len(samples)-1].at.UTC().Format("01-02 15:04"))
	if partial > 0 {
		caption += fmt.Sprintf("; %d points with partial coverage are lower bounds", partial)
	}
	graph := asciigraph.Plot(values, asciigraph.Height(12), asciigraph.Precision(0))
	_, err := fmt.Fprintf(w, "%s\n%s\n", graph, wrap(caption, width))
	return err
}

// wrap breaks text into lines of at most width runes, at spaces.
func wrap(text string, width int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "\n")
}
