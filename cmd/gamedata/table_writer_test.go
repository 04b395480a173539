package main

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastColumn finds where the last column of a table line begins: after
// its last run of two spaces.
var lastColumn = regexp.MustCompile(`^.*  +`)

// On a terminal a table fits its width, counted in display cells: long
// text is cut with "…", and rows whose names hold emoji or Cyrillic line
// up. In a pipe nothing is cut.
func TestTableFitsTheTerminal(t *testing.T) {
	t.Parallel()
	twin := newTwin(t, gamedatatest.WithSize(gamedatatest.DefaultPackages, 20, 5)) // titles of every length
	for _, width := range []int{80, 100} {
		code, out, errOut := onTerminal(t, twin.URL, width, "list", "--kind", "game", "--page-size", "100")
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "…", "long titles are cut")
		for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
			assert.LessOrEqual(t, displayWidth(l), width, "%q fits %d cells", l, width)
		}
	}

	code, out, errOut := onTerminal(t, twin.URL, 80, "list", "--kind", "server")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "🎮", "server names with emoji")
	starts := map[int]int{}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if prefix := lastColumn.FindString(l); prefix != "" {
			starts[displayWidth(prefix)]++
		}
	}
	assert.Len(t, starts, 1, "the last column begins at one cell on every line: %v\n%s", starts, out)

	longest := ""
	for _, g := range twin.Catalog().Entries(url.Values{"kind": {"game"}})[:100] {
		if name := gamedata.NewUntrusted(g.Name).String(); displayWidth(name) > displayWidth(longest) {
			longest = name
		}
	}
	require.Greater(t, displayWidth(longest), 40, "a long title")
	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--page-size", "100", "-o", "table")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "…", "a pipe gets every character")
	assert.Contains(t, out, longest)
}

func TestFitColumns(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		natural []int
		text    []bool
		width   int
		want    []int
	}{
		{[]int{10, 20, 5}, []bool{true, true, false}, 0, []int{10, 20, 5}},
		{[]int{10, 20, 5}, []bool{true, true, false}, 100, []int{10, 20, 5}},
		{[]int{10, 20, 5}, []bool{true, true, false}, 30, []int{10, 11, 5}},
		{[]int{10, 20, 5}, []bool{true, true, false}, 24, []int{7, 8, 5}},
		{[]int{10, 20, 5}, []bool{false, true, false}, 10, []int{10, minColumn, 5}},
	} {
		assert.Equal(t, tt.want, fitColumns(tt.natural, tt.text, tt.width), "%v in %d", tt.natural, tt.width)
	}
}
