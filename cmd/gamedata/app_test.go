package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTwin is a small twin for the command's tests.
func newTwin(t *testing.T) *gamedatatest.Server {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(40, 6, 5))
	t.Cleanup(twin.Close)
	return twin
}

// cli runs the program against twin with args, stdout and stderr as
// pipes, and returns its exit status and output.
func cli(t *testing.T, twin *gamedatatest.Server, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	all := append([]string{"--base-url", twin.URL, "--rate", "0"}, args...)
	code := run(context.Background(), all, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// ndjson parses output of one JSON object a line.
func ndjson(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	s := bufio.NewScanner(strings.NewReader(out))
	s.Buffer(nil, 16<<20)
	for s.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(s.Bytes(), &m), "line %q", s.Text())
		rows = append(rows, m)
	}
	return rows
}

func csvRows(t *testing.T, out string) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	return rows
}

func TestList(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})

	code, out, errOut := cli(t, twin, "list", "--kind", "game", "--page-size", "7")
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

	code, out, _ = cli(t, twin, "list", "--kind", "game", "--all")
	require.Equal(t, 0, code)
	assert.Len(t, ndjson(t, out), len(games), "every page")

	code, out, _ = cli(t, twin, "list", "--kind", "game", "--all", "-o", "csv")
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

	code, out, _ = cli(t, twin, "list", "--kind", "game", "--page-size", "3", "-o", "table")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, 4, "a header and three rows")
	assert.True(t, strings.HasPrefix(lines[0], "KIND  IDENT"), lines[0])
	assert.NotContains(t, out, "\x1b", "publisher text reaches a table sanitized")

	code, out, _ = cli(t, twin, "list", "--kind", "game", "--page-size", "3", "-o", "json")
	require.Equal(t, 0, code)
	var doc []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc), "one JSON document")
	assert.Len(t, doc, 3)
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func TestOrgsGetSearch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()

	code, out, _ := cli(t, twin, "orgs", "--all")
	require.Equal(t, 0, code)
	assert.Len(t, ndjson(t, out), len(cat.Organizations))

	pkg, srv, org := cat.Packages[0], cat.Servers[0], cat.Organizations[0]
	for _, tt := range []struct {
		args  []string
		key   string
		value any
	}{
		{[]string{"get", "package", pkg.Kind + "/" + pkg.Ident}, "ident", pkg.Ident},
		{[]string{"get", "server", srv.ID}, "id", srv.ID},
		{[]string{"get", "org", org.Ident}, "ident", org.Ident},
	} {
		code, out, errOut := cli(t, twin, append(tt.args, "-o", "json")...)
		require.Equal(t, 0, code, errOut)
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rec))
		assert.Equal(t, tt.value, rec[tt.key], "%v", tt.args)
	}

	code, out, _ = cli(t, twin, "search", "miner")
	require.Equal(t, 0, code)
	var want struct{ Packages, Servers, Organizations []json.RawMessage }
	require.NoError(t, json.Unmarshal(cat.Search("miner"), &want))
	assert.Len(t, ndjson(t, out), len(want.Packages)+len(want.Servers)+len(want.Organizations))
}

func TestActivityAndAnalytics(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin, "activity", "--range", "24h")
	require.Equal(t, 0, code, errOut)
	points := ndjson(t, out)
	var truth struct{ Points [][]any }
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("24h"), &truth))
	require.Len(t, points, len(truth.Points))
	nulls := 0
	for i, p := range points {
		if truth.Points[i][1] == nil {
			nulls++
			assert.Nil(t, p["players"], "point %d: null is null, never 0", i)
		}
	}
	assert.Positive(t, nulls)

	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	code, out, _ = cli(t, twin, "analytics", "package", ref, "-o", "csv")
	require.Equal(t, 0, code)
	rows := csvRows(t, out)
	var truthReport struct{ History []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().PackageReport(pkg.Kind, pkg.Ident), &truthReport))
	require.Len(t, rows, len(truthReport.History)+1)
	assert.Equal(t, []string{"capturedAt", "partialCoverage"}, rows[0][:2])

	code, out, _ = cli(t, twin, "analytics", "org", twin.Catalog().Organizations[0].Ident, "-o", "json")
	require.Equal(t, 0, code)
	var report map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	assert.Contains(t, report, "history")
}

// Bad usage exits 2 and a failure 1, each with one line on stderr that
// says what was wrong.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"list", "--page-size", "x"}, 2, "invalid argument"},
		{[]string{"list", "-o", "yaml"}, 2, `-o "yaml"`},
		{[]string{"get", "package", "nokind"}, 2, "want KIND/IDENT"},
		{[]string{"get", "thing", "x"}, 2, `get "thing"`},
		{[]string{"list", "--page-size", "500"}, 2, "page size 500"},
		{[]string{"export", "--resume"}, 2, "--resume needs --out"},
		{[]string{"chart", "activity"}, 2, "--term"},
		{[]string{"get", "package", "game/no-such-game"}, 1, "404 Not Found"},
	} {
		code, _, errOut := cli(t, twin, tt.args...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, errOut)
		first := strings.SplitN(errOut, "\n", 2)[0]
		assert.Contains(t, first, tt.says, "%v", tt.args)
		assert.True(t, strings.HasPrefix(first, "gamedata: "), first)
	}
}
