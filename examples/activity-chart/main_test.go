package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// node is any XML element.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []node     `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// find returns every element below n (n included) that keep accepts.
func (n node) find(keep func(node) bool) []node {
	var out []node
	if keep(n) {
		out = append(out, n)
	}
	for _, c := range n.Nodes {
		out = append(out, c.find(keep)...)
	}
	return out
}

func byClass(class string) func(node) bool {
	return func(n node) bool { return n.attr("class") == class }
}

func parseSVG(t *testing.T, b []byte) node {
	t.Helper()
	var root node
	require.NoError(t, xml.Unmarshal(b, &root), "the SVG is well-formed XML")
	require.Equal(t, "svg", root.XMLName.Local)
	require.Equal(t, "http://www.w3.org/2000/svg", root.XMLName.Space)
	return root
}

func panelOf(t *testing.T, root node, id string) node {
	t.Helper()
	panels := root.find(func(n node) bool { return n.XMLName.Local == "g" && n.attr("id") == id })
	require.Len(t, panels, 1, "panel %s", id)
	return panels[0]
}

// expect counts, in a series, the runs of nulls, of values and of partial
// points, and the values.
type expect struct{ gaps, segments, partialRuns, values int }

func count(nulls, partial []bool) expect {
	var e expect
	for i := range nulls {
		if nulls[i] && (i == 0 || !nulls[i-1]) {
			e.gaps++
		}
		if !nulls[i] && (i == 0 || nulls[i-1]) {
			e.segments++
		}
		if partial[i] && (i == 0 || !partial[i-1]) {
			e.partialRuns++
		}
		if !nulls[i] {
			e.values++
		}
	}
	return e
}

// check compares a drawn panel with the series it was drawn from: one gap
// band per run of nulls, one line segment per run of values, and exactly
// one vertex per value, so no null was drawn as a zero.
func check(t *testing.T, panel node, want expect) {
	t.Helper()
	require.Positive(t, want.gaps, "the data has nulls")
	assert.Len(t, panel.find(byClass("gap")), want.gaps, "a gap band per run of nulls")
	assert.Len(t, panel.find(byClass("partial")), want.partialRuns, "a band per run of partial coverage")
	segments := panel.find(byClass("segment"))
	assert.Len(t, segments, want.segments, "the line breaks at every gap")
	vertices := 0
	for _, s := range segments {
		if s.XMLName.Local == "circle" {
			vertices++
			continue
		}
		vertices += strings.Count(s.attr("d"), "M") + strings.Count(s.attr("d"), "L")
	}
	assert.Equal(t, want.values, vertices, "one vertex per value, none for a null")
}

func TestChartOffline(t *testing.T) {
	out := filepath.Join(t.TempDir(), "chart.svg")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-o", out}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "in-process twin")
	assert.Contains(t, stdout.String(), "wrote "+out)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	root := parseSVG(t, b)

	twin := gamedatatest.NewServer() // the same seed as the in-process twin
	defer twin.Close()
	var h map[string]any
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("7d"), &h))
	listed := map[float64]bool{}
	for _, ms := range h["partialCoverage"].([]any) {
		listed[ms.(float64)] = true
	}
	var nulls, partial []bool
	for _, p := range h["points"].([]any) {
		p := p.([]any)
		nulls = append(nulls, p[1] == nil)
		partial = append(partial, p[6] == 1.0 || listed[p[0].(float64)])
	}
	panel := panelOf(t, root, "activity")
	check(t, panel, count(nulls, partial))
	assert.Len(t, panel.find(byClass("current")), 1, "the current point is marked")
	assert.Empty(t, root.find(func(n node) bool { return n.attr("id") == "package" }), "no package panel unless asked")
}

func TestChartPackage(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	c := twin.Catalog()
	var kind, ident, title string
	for _, p := range c.Packages {
		if s := p.Name; strings.ContainsAny(s, "\x1b\u202e\u2066") {
			kind, ident, title = p.Kind, p.Ident, s
			break
		}
	}
	require.NotEmpty(t, ident, "a package with a hostile title")

	var stdout, stderr bytes.Buffer
	args := []string{"-base-url", twin.URL, "-o", "-", "-range", "24h", "-package", kind + "/" + ident}
	require.NoError(t, run(context.Background(), args, &stdout, &stderr))
	root := parseSVG(t, stdout.Bytes())

	var report struct{ History []map[string]any }
	require.NoError(t, json.Unmarshal(c.PackageReport(kind, ident), &report))
	var nulls, partial []bool
	for _, e := range report.History {
		nulls = append(nulls, e["players"] == nil)
		partial = append(partial, e["partialCoverage"] == true)
	}
	panel := panelOf(t, root, "package")
	check(t, panel, count(nulls, partial))
	want := count(nulls, partial)
	assert.Len(t, panel.find(byClass("partial-point")), countTrue(partial, nulls), "each partial value is marked")
	assert.Len(t, panel.find(byClass("complete")), want.values-countTrue(partial, nulls))

	titles := panel.find(byClass("title"))
	require.Len(t, titles, 1)
	assert.Equal(t, "Average players of "+gamedata.NewUntrusted(title).String()+" ("+kind+"/"+ident+")", titles[0].Text,
		"the title is printed through Untrusted.String")
	assert.NotContains(t, stdout.String(), "\x1b")
	assert.Equal(t, "Players online, range 24h", panelOf(t, root, "activity").find(byClass("title"))[0].Text)
}

// countTrue counts the partial points that have a value.
func countTrue(partial, nulls []bool) int {
	n := 0
	for i := range partial {
		if partial[i] && !nulls[i] {
			n++
		}
	}
	return n
}

func TestChartNormalizedRange(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-o", "-", "-range", "bogus"}, &stdout, &stderr))
	root := parseSVG(t, stdout.Bytes())
	assert.Equal(t, "Players online, range 7d", panelOf(t, root, "activity").find(byClass("title"))[0].Text,
		"the range the service answered with")
}

func TestBadArguments(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	for _, args := range [][]string{
		{"-package", "game"}, {"-package", "/x"}, {"-package", "game/"}, {"extra"}, {"-nope"},
		{"-base-url", twin.URL, "-o", "-", "-package", "game/no-such-package"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Error(t, run(context.Background(), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, stdout.String())
	}
}

func TestRuns(t *testing.T) {
	pts := []point{{ok: true}, {}, {}, {ok: true}, {ok: true}, {}}
	assert.Equal(t, [][2]int{{1, 3}, {5, 6}}, runs(pts, func(p point) bool { return !p.ok }))
	assert.Equal(t, [][2]int{{0, 1}, {3, 5}}, runs(pts, func(p point) bool { return p.ok }))
	assert.Empty(t, runs(nil, func(point) bool { return true }))
	assert.Equal(t, 1.0, nice(0))
	assert.Equal(t, 10000.0, nice(6099))
	assert.Equal(t, 200.0, nice(101))
}
