package main

import (
	"encoding/json"
	"testing"

	"github.com/gamedata-go/gamedata"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "search", "miner")
	require.Equal(t, 0, code, errOut)
	var want struct{ Packages, Servers, Organizations []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().Search("miner"), &want))
	assert.Len(t, ndjson(t, out), len(want.Packages)+len(want.Servers)+len(want.Organizations))
}

// Each hit of a search says its type and its name, in CSV and in a
// table: a package's title, a server's and an organization's own name.
// In JSON each hit is as sent, with its type. A search that finds
// nothing says so on a terminal, and prints nothing in a pipe.
func TestSearchHits(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	var want struct {
		Packages      []struct{ Title string }
		Servers       []struct{ Name string }
		Organizations []struct{ Name string }
	}
	require.NoError(t, json.Unmarshal(twin.Catalog().Search("e"), &want))
	require.NotEmpty(t, want.Servers)
	require.NotEmpty(t, want.Organizations)
	var names []string
	for _, p := range want.Packages {
		names = append(names, "package "+gamedata.NewUntrusted(p.Title).String())
	}
	for _, s := range want.Servers {
		names = append(names, "server "+gamedata.NewUntrusted(s.Name).String())
	}
	for _, o := range want.Organizations {
		names = append(names, "organization "+gamedata.NewUntrusted(o.Name).String())
	}

	code, out, errOut := cli(t, twin.URL, "search", "e", "-o", "csv")
	require.Equal(t, 0, code, errOut)
	rows := csvRows(t, out)
	require.Equal(t, []string{"type", "kind", "ident", "id", "name"}, rows[0][:5])
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[0]+" "+r[4])
	}
	assert.Equal(t, names, got, "every hit with its type and name")

	code, out, errOut = onTerminal(t, twin.URL, 200, "search", "e")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `^TYPE +KIND +IDENT +ID +NAME`, out)
	assert.Contains(t, out, "organization")

	code, out, errOut = cli(t, twin.URL, "search", "e", "-o", "json")
	require.Equal(t, 0, code, errOut)
	var hits []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &hits))
	require.Len(t, hits, len(names))
	assert.Equal(t, "organization", hits[len(hits)-1]["type"])

	code, out, errOut = onTerminal(t, twin.URL, 80, "search", "zzzz")
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Equal(t, "gamedata: no results\n", errOut, "nothing found is said on a terminal")
	code, out, errOut = cli(t, twin.URL, "search", "zzzz")
	assert.Equal(t, 0, code)
	assert.Empty(t, out+errOut, "a pipe gets nothing")
}
