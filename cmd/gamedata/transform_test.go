package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --jq filters what -o json would print, as gh's does: strings raw,
// anything else as JSON, numbers as sent and null as null; @tsv keeps its
// tabs while the service's text is shown inert. A bad expression, or a
// format that is not JSON, is refused before anything is sent.
func TestJQ(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	all := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	games := all[:5]
	var idents []string
	for _, g := range games {
		idents = append(idents, g.Ident)
	}
	code, out, errOut := cli(t, twin.URL, "list", "--kind", "game", "--page-size", "5", "--jq", ".[] | .ident")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, strings.Join(idents, "\n")+"\n", out)

	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--all", "--jq", "length")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, fmt.Sprintf("%d\n", len(all)), out, "a walk is one array")

	code, out, errOut = cli(t, twin.URL, "get", "package", "game/"+games[0].Ident, "--jq", "{ident, playersPeak}")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, `{"ident":"`+games[0].Ident+`","playersPeak":null}`+"\n", out, "null stays null")

	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--all", "--jq", ".[] | [.ident, .title] | @tsv")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, len(all))
	for _, l := range lines {
		assert.Equal(t, 1, strings.Count(l, "\t"), "%q", l)
		assertInert(t, strings.ReplaceAll(l, "\t", " "), "a jq line")
	}

	for _, args := range [][]string{
		{"list", "--jq", ".[] | "},
		{"list", "--jq", ".ident", "-o", "csv"},
		{"list", "--jq", ".", "--template", "{{.}}"},
		{"get", "package", "game/x", "--template", "{{.ident"},
	} {
		before := len(twin.Requests())
		code, _, errOut := cli(t, twin.URL, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.Len(t, twin.Requests(), before, "%v: refused before any request", args)
	}
}

// --template runs a Go template over what -o json would print, with gh's
// helpers written anew: tablerow lines up columns, join and pluck
// gather, truncate cuts.
func TestTemplate(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	all := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	games := all[:3]
	code, out, errOut := cli(t, twin.URL, "list", "--kind", "game", "--page-size", "3",
		"--template", `{{range .}}{{tablerow .ident .kind}}{{end}}`)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 3)
	for i, l := range lines {
		assert.True(t, strings.HasPrefix(l, games[i].Ident+"  "), l)
		assert.Equal(t, strings.LastIndex(lines[0], " "), strings.LastIndex(l, " "), "%q lines up with %q", l, lines[0])
	}

	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--all", "--template", `{{range .}}{{tablerow .title .ident}}{{end}}`)
	require.Equal(t, 0, code, errOut)
	require.True(t, slices.ContainsFunc(all, func(e gamedatatest.Entry) bool { return strings.Contains(e.Name, "\x1b") }), "titles with escapes")
	starts := map[int]int{}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		assertInert(t, l, "a template line")
		starts[textwidth.Width(lastColumn.FindString(l))]++
	}
	assert.Len(t, starts, 1, "titles with escape sequences line up as shown: %v\n%s", starts, out)

	code, out, errOut = cli(t, twin.URL, "list", "--kind", "game", "--page-size", "3",
		"--template", `{{join ", " (pluck "ident" .)}}{{"\n"}}{{range .}}{{truncate 4 .ident}}{{"\n"}}{{end}}`)
	require.Equal(t, 0, code, errOut)
	want := games[0].Ident + ", " + games[1].Ident + ", " + games[2].Ident + "\n"
	for _, g := range games {
		want += textwidth.Truncate(g.Ident, 4) + "\n"
	}
	assert.Equal(t, want, out)
}

// A jq expression is the user's program: it runs under the command's
// context, so Ctrl-C, SIGTERM (both cancel it: main) and --timeout end
// one that never would, and what it prints is written as it comes, not
// held. The first line written is the point at which the test knows the
// expression runs, and interrupts it.
func TestJQEndsWithTheCommand(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ident := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0].Ident
	for _, expr := range []string{".ident, last(range(infinite))", "repeat(.ident)"} {
		t.Run(expr, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelOnWrite{cancel: cancel}
			code, errOut := runUntil(t, ctx, out, twin.URL, "get", "package", "game/"+ident, "--jq", expr)
			assert.Equal(t, message.ExitInterrupted, code, errOut)
			assert.True(t, strings.HasPrefix(out.String(), ident+"\n"), "%.100q", out.String())
		})
	}
	t.Run("--timeout", func(t *testing.T) {
		t.Parallel()
		var out bytes.Buffer
		code, errOut := runUntil(t, context.Background(), &out, twin.URL,
			"--timeout", "3s", "get", "package", "game/"+ident, "--jq", ".ident, last(range(infinite))")
		assert.Equal(t, 1, code, errOut)
		assert.Contains(t, errOut, "gave up after 3s")
		assert.Equal(t, ident+"\n", out.String(), "the expression ran, and printed as it went")
	})
}
