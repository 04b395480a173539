package main

import (
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChartFiles(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	pkg := twin.Catalog().Packages[0]
	for _, args := range [][]string{
		{"chart", "activity", "--range", "24h", "--out", filepath.Join(dir, "day.png")},
		{"chart", "package", pkg.Kind + "/" + pkg.Ident, "--out", filepath.Join(dir, "pkg.svg")},
	} {
		code, _, errOut := cli(t, twin.URL, args...)
		require.Equal(t, 0, code, errOut)
	}
	f, err := os.Open(filepath.Join(dir, "day.png"))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err, "the PNG decodes")
	assert.Greater(t, img.Bounds().Dx(), 100)

	svg, err := os.ReadFile(filepath.Join(dir, "pkg.svg"))
	require.NoError(t, err)
	d := xml.NewDecoder(strings.NewReader(string(svg)))
	for {
		_, err := d.Token()
		if err != nil {
			require.Equal(t, "EOF", err.Error(), "the SVG parses as XML")
			break
		}
	}
	assert.Contains(t, string(svg), "lower bound", "partial coverage is marked as a lower bound")
}

func TestChartInTheTerminal(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "chart", "activity", "--range", "7d", "--term")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Greater(t, len(lines), 10)
	for _, l := range lines {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), 80, "%q fits 80 columns", l)
	}
	assert.Contains(t, out, "lower bound")
}

// svgTexts are the texts an SVG file shows.
func svgTexts(t *testing.T, svg string) []string {
	t.Helper()
	var texts []string
	d := xml.NewDecoder(strings.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(tok))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

// A chart shows every value: an average between two unavailable ones is
// a dot of the line's colour, where a line of one point showed nothing.
func TestChartIsolatedValues(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
	var ref string
	isolated := 0
	for _, p := range cat.Packages {
		var report struct {
			History []struct {
				Players *float64 `json:"players"`
			} `json:"history"`
		}
		require.NoError(t, json.Unmarshal(cat.PackageReport(p.Kind, p.Ident), &report))
		h := report.History
		n := 0
		for i := 1; i+1 < len(h); i++ {
			if h[i-1].Players == nil && h[i].Players != nil && h[i+1].Players == nil {
				n++
			}
		}
		if n > 0 {
			ref, isolated = p.Kind+"/"+p.Ident, n
			break
		}
	}
	require.NotEmpty(t, ref, "the twin has a value between two nulls")
	svg := filepath.Join(t.TempDir(), "p.svg")
	code, _, errOut := cli(t, twin.URL, "chart", "package", ref, "--out", svg)
	require.Equal(t, 0, code, errOut)
	body, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, strings.Count(string(body), "fill:#0000C8"), isolated, "each value between two nulls is a dot")
}

// Partial coverage shows without hiding the line: a band a run of
// points, not a marker a point, and the legend calls it a lower bound.
// Time is labelled at round hours or days, four labels at least.
func TestChartPartialCoverageAndTicks(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	var history struct {
		Points [][]any `json:"points"`
	}
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("7d"), &history))
	partial := 0
	for _, p := range history.Points {
		if p[6] == 1.0 {
			partial++
		}
	}
	require.Greater(t, partial, 100, "the week has many points with partial coverage")
	dir := t.TempDir()
	for _, rng := range []string{"24h", "7d"} {
		svg := filepath.Join(dir, rng+".svg")
		code, _, errOut := cli(t, twin.URL, "chart", "activity", "--range", rng, "--out", svg)
		require.Equal(t, 0, code, errOut)
		body, err := os.ReadFile(svg)
		require.NoError(t, err)
		if rng == "7d" {
			assert.Less(t, strings.Count(string(body), "fill:#E68C00"), 20, "a band a run, not a marker a point")
			assert.Contains(t, string(body), "lower bound")
		}
		var labels []string
		for _, text := range svgTexts(t, string(body)) {
			if regexp.MustCompile(`^\d\d-\d\d$|^\d\d:\d\d$|^\d{4}-\d\d-\d\d$`).MatchString(text) {
				labels = append(labels, text)
			}
		}
		assert.GreaterOrEqual(t, len(labels), 4, "%s: %v", rng, labels)
		for _, l := range labels {
			if len(l) == 5 && l[2] == ':' {
				assert.True(t, strings.HasSuffix(l, ":00"), "%s: %q is a round hour", rng, l)
			}
		}
	}
}

// --out takes .PNG as .png; on a terminal the chart says where it went;
// --term draws as wide as the terminal.
func TestChartOutAndTerm(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	out := filepath.Join(t.TempDir(), "WEEK.PNG")
	code, _, errOut := onTerminal(t, twin.URL, 120, "chart", "activity", "--out", out)
	require.Equal(t, 0, code, errOut)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err, "a PNG")
	assert.Contains(t, errOut, "gamedata: wrote "+out)

	code, drawn, errOut := onTerminal(t, twin.URL, 120, "chart", "activity", "--term")
	require.Equal(t, 0, code, errOut)
	widest := 0
	for _, l := range strings.Split(drawn, "\n") {
		widest = max(widest, utf8.RuneCountInString(l))
	}
	assert.LessOrEqual(t, widest, 120)
	assert.Greater(t, widest, 100, "the chart takes the terminal's width")
}
