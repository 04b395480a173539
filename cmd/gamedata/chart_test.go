package main

import (
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
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
	assert.Contains(t, string(svg), "partial coverage: at least", "partial coverage is marked as a lower bound")
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
	assert.Contains(t, out, "lower bounds")
}
