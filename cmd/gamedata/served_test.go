package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The service answers a kind, sort, filter or range it does not support
// with its default, without an error; each command says so once on
// stderr, from what the response says it served, and goes on with it.
func TestServedIsSaid(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	svg := filepath.Join(t.TempDir(), "b.svg")
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"activity", "--range", "1h"}, `gamedata: activity: range "1h" is not supported; the service sent 7d`},
		{[]string{"chart", "activity", "--range", "bogus", "--out", svg}, `gamedata: chart: range "bogus" is not supported; the service sent 7d`},
		{[]string{"list", "--kind", "games"}, `gamedata: list: kind "games" is not supported; the service sent every kind of package`},
		{[]string{"list", "--kind", "game", "--sort", "bogus"}, `gamedata: list: sort "bogus" is not supported; the service sorted by ident`},
		{[]string{"list", "--all", "--sort", "bogus"}, `gamedata: list: sort "bogus" is not supported; the service sorted by ident`},
		{[]string{"list", "--kind", "game", "--filter", "online,has-plyers"}, `gamedata: list: filter "has-plyers" is not supported; the service applied only online`},
		{[]string{"orgs", "--filter", "nope"}, `gamedata: orgs: filter "nope" is not supported; the service applied no filter`},
		{[]string{"export", "--kind", "game", "--sort", "bogus"}, `gamedata: export: sort "bogus" is not supported; the service sorted by ident`},
	} {
		code, _, errOut := cli(t, twin.URL, tt.args...)
		require.Equal(t, 0, code, "%v: %s", tt.args, errOut)
		assert.Equal(t, 1, strings.Count(errOut, tt.says), "%v says it once: %q", tt.args, errOut)
	}
	body, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.Contains(t, string(body), "Players on the platform, 7d", "the chart is titled from what was served")
	assert.NotContains(t, string(body), "bogus")

	code, _, errOut := cli(t, twin.URL, "list", "--kind", "game", "--filter", "online", "--sort", "ident", "--page-size", "5")
	require.Equal(t, 0, code)
	assert.Empty(t, errOut, "nothing to say when the service served what was asked")
}

// --filter a,b is two filters, as people type them, like two --filter.
func TestFilterList(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	want := twin.Catalog().Entries(url.Values{"kind": {"game"}, "filter": {"online", "has-players"}})
	all := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	require.Less(t, len(want), len(all), "the filters leave games out")
	for _, args := range [][]string{
		{"list", "--kind", "game", "--all", "--filter", "online,has-players"},
		{"list", "--kind", "game", "--all", "--filter", "online", "--filter", "has-players"},
	} {
		code, out, errOut := cli(t, twin.URL, args...)
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, errOut, "%v: both filters were applied", args)
		assert.Len(t, ndjson(t, out), len(want), "%v", args)
	}
}
