package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"
)

// point is one value of a series; ok is false where the metric is null.
type point struct {
	t       time.Time
	v       float64
	ok      bool
	partial bool
	current bool
}

// panel is one chart: a titled series over time.
type panel struct {
	id, title string
	points    []point
}

func (p panel) nulls() (n int) {
	for _, pt := range p.points {
		if !pt.ok {
			n++
		}
	}
	return n
}

func (p panel) partials() (n int) {
	for _, pt := range p.points {
		if pt.partial {
			n++
		}
	}
	return n
}

// Geometry of a panel, in SVG user units.
const (
	width       = 960.0
	panelHeight = 320.0
	left        = 70.0
	right       = 20.0
	top         = 40.0
	bottom      = 50.0
	plotW       = width - left - right
	plotH       = panelHeight - top - bottom
	// markersUpTo is the number of points up to which each point gets a
	// marker; denser series show partial coverage by bands only.
	markersUpTo = 200
)

// render draws the panels one above the other.
func render(panels []panel) []byte {
	var b bytes.Buffer
	height := panelHeight * float64(len(panels))
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="12">`+"\n",
		num(width), num(height), num(width), num(height))
	b.WriteString(`<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="6" stroke="#bbbbbb" stroke-width="2"/></pattern></defs>` + "\n")
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for i, p := range panels {
		renderPanel(&b, p, float64(i)*panelHeight)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func renderPanel(b *bytes.Buffer, p panel, y0 float64) {
	fmt.Fprintf(b, `<g id="%s" class="panel" transform="translate(0 %s)">`+"\n", esc(p.id), num(y0))
	fmt.Fprintf(b, `<text class="title" x="%s" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", num(left), esc(p.title))
	if len(p.points) == 0 {
		fmt.Fprintf(b, `<text x="%s" y="%s">no data</text></g>`+"\n", num(left), num(top+plotH/2))
		return
	}
	t0, t1 := p.points[0].t, p.points[len(p.points)-1].t
	if !t1.After(t0) {
		t1 = t0.Add(time.Second)
	}
	vmax := 0.0
	for _, pt := range p.points {
		if pt.ok {
			vmax = math.Max(vmax, pt.v)
		}
	}
	vmax = nice(vmax)
	x := func(t time.Time) float64 { return left + plotW*float64(t.Sub(t0))/float64(t1.Sub(t0)) }
	y := func(v float64) float64 { return top + plotH - plotH*v/vmax }
	// half is half the typical spacing of points, so that a band around
	// a single point has a width.
	half := plotW / float64(max(len(p.points)-1, 1)) / 2

	axes(b, t0, t1, vmax, x, y)

	// Bands first, under the line: partial coverage, then gaps.
	b.WriteString(`<g class="partial-bands" fill="#f4a261" fill-opacity="0.3">` + "\n")
	for _, r := range runs(p.points, func(pt point) bool { return pt.partial }) {
		x0, x1 := band(x(p.points[r[0]].t)-half, x(p.points[r[1]-1].t)+half)
		fmt.Fprintf(b, `<rect class="partial" x="%s" y="%s" width="%s" height="%s"/>`+"\n", num(x0), num(top), num(x1-x0), num(plotH))
	}
	b.WriteString("</g>\n")
	b.WriteString(`<g class="gaps" fill="url(#hatch)">` + "\n")
	for _, r := range runs(p.points, func(pt point) bool { return !pt.ok }) {
		x0, x1 := band(x(p.points[r[0]].t)-half, x(p.points[r[1]-1].t)+half)
		fmt.Fprintf(b, `<rect class="gap" x="%s" y="%s" width="%s" height="%s"><title>unavailable</title></rect>`+"\n",
			num(x0), num(top), num(x1-x0), num(plotH))
	}
	b.WriteString("</g>\n")

	// The line, broken wherever the metric is null: never drawn as zero.
	b.WriteString(`<g class="series" fill="none" stroke="#1d3557" stroke-width="1.5" stroke-linejoin="round">` + "\n")
	for _, r := range runs(p.points, func(pt point) bool { return pt.ok }) {
		if r[1]-r[0] == 1 { // a lone point between gaps: a dot
			pt := p.points[r[0]]
			fmt.Fprintf(b, `<circle class="segment" cx="%s" cy="%s" r="2" fill="#1d3557"/>`+"\n", num(x(pt.t)), num(y(pt.v)))
			continue
		}
		var d bytes.Buffer
		for i := r[0]; i < r[1]; i++ {
			cmd := "L"
			if i == r[0] {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%s %s", cmd, num(x(p.points[i].t)), num(y(p.points[i].v)))
		}
		fmt.Fprintf(b, `<path class="segment" d="%s"/>`+"\n", d.String())
	}
	b.WriteString("</g>\n")

	if len(p.points) <= markersUpTo {
		b.WriteString(`<g class="markers" stroke="#1d3557">` + "\n")
		for _, pt := range p.points {
			if !pt.ok {
				continue
			}
			fill, class := "#1d3557", "complete"
			if pt.partial {
				fill, class = "white", "partial-point"
			}
			fmt.Fprintf(b, `<circle class="%s" cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", class, num(x(pt.t)), num(y(pt.v)), fill)
		}
		b.WriteString("</g>\n")
	}
	for _, pt := range p.points {
		if pt.current && pt.ok {
			fmt.Fprintf(b, `<circle class="current" cx="%s" cy="%s" r="4" fill="#e63946"><title>current: %s</title></circle>`+"\n",
				num(x(pt.t)), num(y(pt.v)), num(pt.v))
		}
	}
	legend(b)
	b.WriteString("</g>\n")
}

func axes(b *bytes.Buffer, t0, t1 time.Time, vmax float64, x func(time.Time) float64, y func(float64) float64) {
	b.WriteString(`<g class="axes" stroke="#999999" fill="#333333">` + "\n")
	for i := 0; i <= 4; i++ {
		v := vmax * float64(i) / 4
		fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke-opacity="0.3"/>`, num(left), num(left+plotW), num(y(v)), num(y(v)))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end" stroke="none">%s</text>`+"\n", num(left-6), num(y(v)+4), num(v))
	}
	layout := "2006-01-02"
	switch span := t1.Sub(t0); {
	case span <= 2*24*time.Hour:
		layout = "Jan 2 15:04"
	case span > 400*24*time.Hour:
		layout = "2006-01"
	}
	for i := 0; i <= 5; i++ {
		t := t0.Add(time.Duration(float64(t1.Sub(t0)) * float64(i) / 5))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" stroke="none">%s</text>`+"\n",
			num(x(t)), num(top+plotH+18), esc(t.UTC().Format(layout)))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end" stroke="none">UTC</text>`+"\n", num(left+plotW), num(top+plotH+36))
	fmt.Fprintf(b, `<line x1="%s" x2="%s" y1="%s" y2="%s"/>`+"\n", num(left), num(left+plotW), num(top+plotH), num(top+plotH))
	b.WriteString("</g>\n")
}

func legend(b *bytes.Buffer) {
	lx, ly := left, top+plotH+36
	fmt.Fprintf(b, `<g class="legend" transform="translate(%s %s)">`, num(lx), num(ly-10))
	b.WriteString(`<rect width="14" height="12" fill="#f4a261" fill-opacity="0.3"/><text x="18" y="10">partial coverage (a lower bound)</text>`)
	b.WriteString(`<rect x="230" width="14" height="12" fill="url(#hatch)"/><text x="248" y="10">unavailable (null, not zero)</text>`)
	b.WriteString(`<circle cx="450" cy="6" r="4" fill="#e63946"/><text x="458" y="10">current</text>`)
	b.WriteString("</g>\n")
}

// band widens [x0, x1] about its middle to at least minBand, so a gap of
// a few points in a dense series is still visible.
func band(x0, x1 float64) (float64, float64) {
	const minBand = 4
	if w := x1 - x0; w < minBand {
		x0, x1 = x0-(minBand-w)/2, x1+(minBand-w)/2
	}
	return x0, x1
}

// runs returns the maximal runs [start, end) of consecutive points for
// which in is true.
func runs(points []point, in func(point) bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(points); {
		if !in(points[i]) {
			i++
			continue
		}
		j := i
		for j < len(points) && in(points[j]) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// nice rounds v up to 1, 2 or 5 times a power of ten, for axis labels.
func nice(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	steps := []float64{1, 2, 5, 10}
	i := sort.SearchFloat64s(steps, v/p)
	return steps[min(i, len(steps)-1)] * p
}

// num formats a coordinate or a label, to two decimals at most.
func num(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// esc escapes text for XML.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
