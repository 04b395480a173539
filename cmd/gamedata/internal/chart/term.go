package chart

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/guptarohit/asciigraph"
)

// Terminal draws samples as text within width columns: players
// averaged into one column per bucket of time, a gap where none is
// available; under the chart a row marks with ^ the columns with partial
// coverage (lower bounds), and a row labels round times.
func Terminal(w io.Writer, title string, samples []Sample, width int) error {
	if len(samples) == 0 {
		_, err := fmt.Fprintln(w, title+": no points")
		return err
	}
	columns := max(min(width-12, len(samples)), 1) // the axis labels take the rest
	values := make([]float64, columns)
	partial := make([]bool, columns)
	starts := make([]time.Time, columns)
	partials := 0
	for i := range values {
		lo, hi := i*len(samples)/columns, (i+1)*len(samples)/columns
		starts[i] = samples[lo].at
		sum, n := 0.0, 0
		for _, s := range samples[lo:hi] {
			if s.ok {
				sum, n = sum+s.players, n+1
			}
			if s.partial {
				partial[i] = true
				partials++
			}
		}
		values[i] = math.NaN()
		if n > 0 {
			values[i] = sum / float64(n)
		}
	}
	graph := asciigraph.Plot(values, asciigraph.Height(12), asciigraph.Precision(0))
	top, _, _ := strings.Cut(graph, "\n")
	axis := len([]rune(top[:max(strings.IndexAny(top, "┤┼"), 0)])) // the axis's column
	var b strings.Builder
	b.WriteString(graph + "\n")
	if partials > 0 {
		row := []rune(strings.Repeat(" ", axis+1+columns))
		for i, p := range partial {
			if p {
				row[axis+1+i] = '^'
			}
		}
		b.WriteString(strings.TrimRight(string(row), " ") + "\n")
	}
	b.WriteString(timeRow(starts, axis+1, width) + "\n")
	caption := fmt.Sprintf("%s, %s to %s UTC", title,
		samples[0].at.UTC().Format("2006-01-02 15:04"), samples[len(samples)-1].at.UTC().Format("2006-01-02 15:04"))
	if partials > 0 {
		caption += fmt.Sprintf(". ^ partial coverage: %d points there are a lower bound, not a total", partials)
	}
	b.WriteString(wrap(caption, width) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// timeRow labels the columns whose bucket begins at a round time (a
// midnight, or a round hour on a short span), each label where its tick
// is, as many as fit in width.
func timeRow(starts []time.Time, offset, width int) string {
	if len(starts) < 2 {
		return ""
	}
	span := starts[len(starts)-1].Sub(starts[0])
	room := max((width-offset)/8, 1) // a label and a space
	step, layout := 24*time.Hour, "01-02"
	for _, s := range []time.Duration{time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 28 * 24 * time.Hour} {
		if int(span/s) <= room {
			step = s
			break
		}
		step = s
	}
	if step < 24*time.Hour {
		layout = "15:04"
	}
	row := []rune(strings.Repeat(" ", max(width, offset+1)))
	next := 0 // the first column free for a label
	for i := 1; i < len(starts); i++ {
		round := starts[i].UTC().Truncate(step)
		if !round.After(starts[i-1].UTC()) || i < next {
			continue
		}
		label := "|" + round.Format(layout)
		at := offset + i
		if at+len(label) > len(row) {
			break
		}
		copy(row[at:], []rune(label))
		next = i + len(label) + 1
	}
	return strings.TrimRight(string(row), " ")
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
