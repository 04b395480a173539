package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The columns of a walk are the documented ones of its kind, whatever its
// first page holds: the twin's first game has a null peak, and a walk
// whose first page is that game alone still has a playersPeak column,
// filled where later games have one.
func TestColumnsOfAWalk(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	var first map[string]any
	require.NoError(t, json.Unmarshal(games[0].JSON(), &first))
	require.Nil(t, first["playersPeak"], "the first game's peak is null")

	dir := t.TempDir()
	for _, args := range [][]string{
		{"list", "--kind", "game", "--all", "--page-size", "1", "-o", "csv"},
		{"export", "--kind", "game", "-o", "csv", "--out", filepath.Join(dir, "games.csv")},
	} {
		code, out, errOut := cli(t, twin.URL, args...)
		require.Equal(t, 0, code, errOut)
		if args[0] == "export" {
			body, err := os.ReadFile(args[len(args)-1])
			require.NoError(t, err)
			out = string(body)
		}
		rows := csvRows(t, out)
		require.Len(t, rows, len(games)+1, "%v", args)
		for _, c := range printer.PackageColumns {
			assert.Contains(t, rows[0], c, "%v: a documented column", args)
		}
		peak := indexOf(rows[0], "playersPeak")
		require.GreaterOrEqual(t, peak, 0, "%v", args)
		filled := 0
		for _, r := range rows[1:] {
			if r[peak] != "" {
				filled++
			}
		}
		assert.Positive(t, filled, "%v: the peaks of later games are there", args)
	}
}

// A --fields name that is neither a documented column nor a member the
// records have is bad usage, and the error lists the names there are; a
// member the service sends that is not documented is a column like any.
func TestFieldsChecked(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	dir := t.TempDir()
	for _, tt := range []struct {
		args         []string
		typo, listed string
	}{
		{[]string{"list", "--fields", "title,plyers", "-o", "csv"}, "plyers", "players"},
		{[]string{"list", "--all", "--fields", "plyers", "-o", "table"}, "plyers", "playersPeak"},
		{[]string{"orgs", "--fields", "nmae", "-o", "csv"}, "nmae", "name"},
		{[]string{"get", "package", ref, "--fields", "plyers", "-o", "csv"}, "plyers", "players"},
		{[]string{"get", "package", ref, "--fields", "plyers", "-o", "table"}, "plyers", "players"},
		{[]string{"get", "package", ref, "--fields", "plyers", "-o", "json"}, "plyers", "players"},
		{[]string{"get", "package", ref, "--fields", "plyers"}, "plyers", "players"},
		{[]string{"list", "--fields", "plyers", "-o", "json"}, "plyers", "players"},
		{[]string{"list", "--all", "--fields", "plyers"}, "plyers", "players"},
		{[]string{"export", "--fields", "plyers", "-o", "csv", "--out", filepath.Join(dir, "x.csv")}, "plyers", "players"},
	} {
		code, out, errOut := cli(t, twin.URL, tt.args...)
		assert.Equal(t, 2, code, "%v: %s", tt.args, errOut)
		assert.Empty(t, out, "%v", tt.args)
		assert.Contains(t, errOut, `--fields "`+tt.typo+`": no such member`, "%v", tt.args)
		assert.Contains(t, errOut, tt.listed, "%v: the error lists the names there are", tt.args)
	}

	code, out, errOut := cli(t, twin.URL, "get", "package", ref, "--fields", "title,organization", "-o", "csv")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, "title,organization", strings.SplitN(out, "\n", 2)[0], "get has --fields; an undocumented member is a column")
}
