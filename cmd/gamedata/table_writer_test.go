package main

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
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
			assert.LessOrEqual(t, textwidth.Width(l), width, "%q fits %d cells", l, width)
		}
	}

	code, out, errOut := onTerminal(t, twin.URL, 80, "list", "--kind", "server")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "🎮", "server names with emoji")
	starts := map[int]int{}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if prefix := lastColumn.FindString(l); prefix != "" {
			starts[textwidth.Width(prefix)]++
		}
	}
	assert.Len(t, starts, 1, "the last column begins at one cell on every line: %v\n%s", starts, out)

	longest := ""
	for _, g := range twin.Catalog().Entries(url.Values{"kind": {"game"}})[:100] {
		if name := gamedata.NewUntrusted(g.Name).String(); textwidth.Width(name) > textwidth.Width(longest) {
			longest = name
		}
	}
	require.Greater(t, textwidth.Width(longest), 40, "a long title")
	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--page-size", "100", "-o", "table")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "…", "a pipe gets every character")
	assert.Contains(t, out, longest)
}

// On a terminal a search, whose hits have many columns, keeps its
// identifiers whole and leaves out the numeric members found, saying so.
func TestTableLeavesOutFoundColumns(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := onTerminal(t, twin.URL, 100, "search", "e")
	require.Equal(t, 0, code, errOut)
	var found struct{ Servers []struct{ ID string } }
	require.NoError(t, json.Unmarshal(twin.Catalog().Search("e"), &found))
	require.NotEmpty(t, found.Servers)
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		assert.LessOrEqual(t, textwidth.Width(l), 100, "%q", l)
	}
	assert.Regexp(t, `^TYPE +KIND +IDENT +ID +NAME +PLAYERS`, out)
	for _, s := range found.Servers {
		assert.Contains(t, out, "  "+s.ID+"  ", "no identifier is cut")
	}
	assert.Contains(t, errOut, "left out of the table to fit the terminal's 100 columns; -o csv, -o json or --fields show them")
	assert.Equal(t, 1, strings.Count(errOut, "left out"), "said once")
}
