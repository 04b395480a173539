package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestList(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})

	code, out, errOut := cli(t, twin.URL, "list", "--kind", "game", "--page-size", "7")
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, errOut, "a pipe gets nothing but errors on stderr")
	rows := ndjson(t, out)
	require.Len(t, rows, 7, "NDJSON in a pipe, one page")
	for i, r := range rows {
		var g map[string]any
		require.NoError(t, json.Unmarshal(games[i].JSON(), &g))
		assert.Equal(t, g["ident"], r["ident"])
		assert.Equal(t, g["players"], r["players"], "null stays null, never 0")
	}

	code, out, _ = cli(t, twin.URL, "list", "--kind", "game", "--all")
	require.Equal(t, 0, code)
	assert.Len(t, ndjson(t, out), len(games), "every page")

	code, out, _ = cli(t, twin.URL, "list", "--kind", "game", "--all", "-o", "csv")
	require.Equal(t, 0, code)
	table := csvRows(t, out)
	require.Len(t, table, len(games)+1)
	header := table[0]
	assert.Equal(t, []string{"kind", "ident", "title"}, header[:3])
	players := indexOf(header, "players")
	require.GreaterOrEqual(t, players, 0, "a numeric metric is a column")
	nulls := 0
	for i, row := range table[1:] {
		if !games[i].Players.Valid {
			nulls++
			assert.Empty(t, row[players], "%s: null is an empty cell, not 0", row[1])
		}
	}
	assert.Positive(t, nulls, "the twin has games with unavailable players")

	code, out, _ = cli(t, twin.URL, "list", "--kind", "game", "--page-size", "3", "-o", "table")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, 4, "a header and three rows")
	assert.True(t, strings.HasPrefix(lines[0], "KIND  IDENT"), lines[0])
	assert.NotContains(t, out, "\x1b", "publisher text reaches a table sanitized")

	code, out, _ = cli(t, twin.URL, "list", "--kind", "game", "--page-size", "3", "-o", "json")
	require.Equal(t, 0, code)
	var doc []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc), "one JSON document")
	assert.Len(t, doc, 3)
}

// list --all prints rows as pages arrive: the third page is served only
// once a row is on stdout, so a command that held every page before
// printing would never get it.
func TestListAllStreams(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"ndjson", "csv", "table", "json"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			twin := newTwin(t)
			release := make(chan struct{})
			base := holdPage(t, twin, "3", release)
			stdout, stderr := newLineWriter(), newLineWriter()
			ctx := guard(t)
			done := make(chan int, 1)
			ended, stop := context.WithCancel(ctx)
			go func() {
				done <- run(ctx, []string{"--base-url", base, "--rate", "0", "list", "--all", "--page-size", "5", "-o", format}, stdout, stderr)
				stop()
			}()
			first := stdout.next(t, ended)
			close(release)
			require.Equal(t, 0, <-done, stderr.String())
			assert.NotEmpty(t, first)
		})
	}
}

// list's flags land in its options, and nothing runs before they are
// checked.
func TestListOptions(t *testing.T) {
	t.Parallel()
	p, err := parseArgs(t, "list", "--kind", "server", "--all", "--filter", "online", "--filter", "has-players",
		"--page", "3", "--page-size", "50", "--fields", "id,players", "-o", "csv")
	require.NoError(t, err)
	o := p.opts.(*listOptions)
	assert.Equal(t, "server", o.Kind)
	assert.True(t, o.All)
	assert.Equal(t, []string{"online", "has-players"}, o.List.Filters)
	assert.Equal(t, 3, o.List.Page)
	assert.Equal(t, 50, o.List.PageSize)
	assert.Equal(t, []string{"id", "players"}, o.Fields)
	assert.Equal(t, "csv", o.Format)

	p, err = parseArgs(t, "list", "-o", "yaml")
	assert.True(t, message.IsUsage(err), "%v", err)
	assert.Nil(t, p.opts, "a bad flag stops the command before it runs")
}

// On a terminal a page that is not the last says how to read on, on
// stderr (a pipe gets the rows only); a --page past the end says which
// page is the last, not the redirect that told it.
func TestListPages(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	pages := (games + 6) / 7
	require.Greater(t, pages, 2)
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"list", "--kind", "game", "--page-size", "7"}, fmt.Sprintf("gamedata: list: page 1 of %d: --page 2 or --all\n", pages)},
		{[]string{"list", "--kind", "game", "--page-size", "7", "--page", "2"}, fmt.Sprintf("gamedata: list: page 2 of %d: --page 3 or --all\n", pages)},
		{[]string{"list", "--kind", "game", "--page-size", "7", "--page", fmt.Sprint(pages)}, ""},
		{[]string{"list", "--kind", "game", "--page-size", "7", "--all"}, ""},
	} {
		code, _, errOut := onTerminal(t, twin.URL, 200, tt.args...)
		assert.Equal(t, 0, code, errOut)
		assert.Equal(t, tt.says, errOut, "%v", tt.args)
		code, _, errOut = cli(t, twin.URL, tt.args...)
		assert.Equal(t, 0, code, errOut)
		assert.Empty(t, errOut, "%v: a pipe gets the rows only", tt.args)
	}
	for _, args := range [][]string{
		{"list", "--kind", "game", "--page-size", "7", "--page", "999"},
		{"list", "--kind", "game", "--page-size", "7", "--page", "999", "--all"},
	} {
		code, out, errOut := cli(t, twin.URL, args...)
		assert.Equal(t, 1, code, errOut)
		assert.Empty(t, out)
		assert.Equal(t, fmt.Sprintf("gamedata: list --page 999: past the directory's end; the last page is %d\n", pages), errOut, "%v", args)
	}
}
