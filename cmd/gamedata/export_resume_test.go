package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trickyIdents are idents a resume must tell apart from what it wrote: some
// begin with a formula character or the guard's own quote, and pairs of
// them read alike once sanitized (a tab and a space; a zero-width space
// and nothing) or once escaped (a backslash sequence).
var trickyIdents = []string{
	"=cmd", "+plus", "-minus", "-5", "@at", "'quote", "''twice",
	"a\tb", "a b", "ab", "a\u200bb", `back\slash`, `\u0041`, "A",
}

// trickyTwin is a twin whose games include WithAwkwardIdents' and
// trickyIdents, and the idents its export writes, in order (".." is
// skipped: no request can name it).
func trickyTwin(t *testing.T) (*gamedatatest.Server, []string) {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(6, 0, 1), gamedatatest.WithAwkwardIdents())
	t.Cleanup(twin.Close)
	for _, ident := range trickyIdents {
		require.NoError(t, twin.AddPackage("game", ident, "Tricky "+ident))
	}
	var idents []string
	for _, e := range twin.Catalog().Entries(url.Values{"kind": {"game"}}) {
		if e.Ident != ".." {
			idents = append(idents, e.Ident)
		}
	}
	return twin, idents
}

// lineEnd is the offset just past line n (0-based) of body.
func lineEnd(t *testing.T, body []byte, n int) int {
	t.Helper()
	end := 0
	for range n + 1 {
		i := bytes.IndexByte(body[end:], '\n')
		require.GreaterOrEqual(t, i, 0, "line %d", n)
		end += i + 1
	}
	return end
}

// A resumed export is the export an uncut run writes, byte for byte,
// wherever the cut fell: after the header, inside the first row, after
// a row whose ident sanitizes like the next one's, or after the last row
// (a complete file, to which a resume adds nothing), whatever the idents
// hold.
func TestExportResumeIsExact(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"csv", "ndjson"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			twin, idents := trickyTwin(t)
			dir := t.TempDir()
			export := func(out string, resume bool) {
				t.Helper()
				args := []string{"--base-url", twin.URL, "--rate", "0", "export", "--kind", "game", "-o", format, "--out", out}
				if resume {
					args = append(args, "--resume")
				}
				var stdout, stderr bytes.Buffer
				code := run(context.Background(), args, &stdout, &stderr)
				require.Equal(t, 0, code, stderr.String())
			}
			whole := filepath.Join(dir, "whole."+format)
			export(whole, false)
			want, err := os.ReadFile(whole)
			require.NoError(t, err)
			assert.Equal(t, idents, exportedIdentsExact(t, want, format), "every game once, in order")

			header := 0 // lines before the first row
			if format == "csv" {
				header = 1
			}
			row := func(ident string) int { return header + slices.Index(idents, ident) }
			cuts := map[string]int{
				"complete file":                  len(want),
				"inside the first row":           lineEnd(t, want, header) - 5,
				"after a tab, before a space":    lineEnd(t, want, row("a\tb")) + 3,
				"after ab, before a<ZWSP>b":      lineEnd(t, want, row("ab")),
				"after =cmd, inside the next":    lineEnd(t, want, row("=cmd")) + 2,
				"after 'quote, before ''twice":   lineEnd(t, want, row("'quote")),
				"after a backslash, inside next": lineEnd(t, want, row(`\u0041`)) + 1,
			}
			if format == "csv" {
				cuts["after the header"] = lineEnd(t, want, 0)
				cuts["inside the header"] = lineEnd(t, want, 0) - 3
				cuts["inside the first row"] = lineEnd(t, want, 0) + 5
			}
			for name, cut := range cuts {
				path := filepath.Join(dir, name+"."+format)
				require.NoError(t, os.WriteFile(path, want[:cut], 0o644))
				export(path, true)
				got, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, string(want), string(got), "cut %s", name)
			}
		})
	}
}

// exportedIdentsExact reads back the idents an export wrote.
func exportedIdentsExact(t *testing.T, body []byte, format string) []string {
	t.Helper()
	var idents []string
	if format == "csv" {
		rows := csvRows(t, string(body))
		col := indexOf(rows[0], "ident")
		require.GreaterOrEqual(t, col, 0)
		for _, r := range rows[1:] {
			ident, err := printer.ReadExactCell(r[col])
			require.NoError(t, err, r[col])
			idents = append(idents, ident)
		}
		return idents
	}
	for _, r := range ndjson(t, string(body)) {
		idents = append(idents, r["ident"].(string))
	}
	return idents
}

// An export writes its identity columns first, whatever --fields says, so
// that it can be resumed; --resume refuses, saying what to do and leaving
// the file as it was, what it cannot continue exactly: a file in the
// other format, one without identity columns, one with other columns than
// asked, or of another kind. With what the message says, it continues.
func TestExportResumeRefuses(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	export := func(args ...string) (int, string) {
		t.Helper()
		code, _, errOut := cli(t, twin.URL, append([]string{"export"}, args...)...)
		return code, errOut
	}
	games := filepath.Join(dir, "games.csv")
	code, errOut := export("--kind", "game", "--fields", "title,players", "-o", "csv", "--out", games)
	require.Equal(t, 0, code, errOut)
	body, err := os.ReadFile(games)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(body, []byte("kind,ident,title,players\n")), "identity columns first: %.60q", body)

	whole := filepath.Join(dir, "whole.csv")
	code, errOut = export("--kind", "game", "-o", "csv", "--out", whole)
	require.Equal(t, 0, code, errOut)
	lines := filepath.Join(dir, "games.ndjson")
	code, errOut = export("--kind", "game", "--out", lines)
	require.Equal(t, 0, code, errOut)
	noIdentity := filepath.Join(dir, "titles.csv")
	require.NoError(t, os.WriteFile(noIdentity, []byte("title,players\nA,1\n"), 0o644))

	for _, tt := range []struct {
		name string
		args []string
		says string
	}{
		{"other --fields", []string{"--fields", "title", "-o", "csv", "--out", games}, "resume with --fields kind,ident,title,players"},
		{"no --fields on a file that had them", []string{"-o", "csv", "--out", games}, "resume with --fields kind,ident,title,players"},
		{"--fields on a file that had none", []string{"--fields", "title", "-o", "csv", "--out", whole}, "resume with --fields kind,ident,title,players,playersPeak"},
		{"another kind", []string{"--kind", "mod", "--fields", "title,players", "-o", "csv", "--out", games}, "resume with --kind game"},
		{"servers", []string{"--kind", "server", "-o", "csv", "--out", games}, "it has no id column"},
		{"CSV as NDJSON", []string{"-o", "ndjson", "--out", games}, "this is not NDJSON; if it is CSV, resume with -o csv"},
		{"NDJSON as CSV", []string{"-o", "csv", "--out", lines}, "resume with -o ndjson"},
		{"no identity columns", []string{"--fields", "title,players", "-o", "csv", "--out", noIdentity}, "it has no kind or ident column"},
	} {
		path := tt.args[len(tt.args)-1]
		before, err := os.ReadFile(path)
		require.NoError(t, err)
		code, errOut := export(append(tt.args, "--resume")...)
		assert.Equal(t, 2, code, "%s: %s", tt.name, errOut)
		assert.Contains(t, errOut, tt.says, tt.name)
		assert.Contains(t, errOut, "or export again without --resume", tt.name)
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "%s: the file is left as it was", tt.name)
	}

	code, errOut = export("--kind", "game", "--fields", "kind,ident,title,players", "-o", "csv", "--out", games, "--resume")
	assert.Equal(t, 0, code, "as the message says: %s", errOut)
	after, err := os.ReadFile(games)
	require.NoError(t, err)
	assert.Equal(t, string(body), string(after), "a complete file gains nothing")
}
