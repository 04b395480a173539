package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGet(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
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
		code, out, errOut := cli(t, twin.URL, append(tt.args, "-o", "json")...)
		require.Equal(t, 0, code, errOut)
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rec))
		assert.Equal(t, tt.value, rec[tt.key], "%v", tt.args)
	}
}

// get parses its arguments into its options before anything is sent.
func TestGetOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want getOptions
	}{
		{[]string{"get", "package", "game/a/b"}, getOptions{Type: "package", Kind: "game", Ident: "a/b"}},
		{[]string{"get", "server", "192.0.2.1:27015"}, getOptions{Type: "server", ID: "192.0.2.1:27015"}},
		{[]string{"get", "organization", "acme"}, getOptions{Type: "org", Ident: "acme"}},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		got := *p.opts.(*getOptions)
		got.common = common{}
		assert.Equal(t, tt.want, got, "%v", tt.args)
	}
}

// On a terminal get shows every member of the record, a line each: its
// name, then its value, null as null (never left out), a list an element
// a line. -o json there is indented.
func TestGetOnATerminal(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
	var ref string
	var record map[string]any
	for _, p := range cat.Packages {
		var m map[string]any
		require.NoError(t, json.Unmarshal(cat.Package(p.Kind, p.Ident), &m))
		if _, ok := m["playersPeak"]; ok && m["playersPeak"] == nil {
			ref, record = p.Kind+"/"+p.Ident, m
			break
		}
	}
	require.NotEmpty(t, ref, "a package with a null peak")
	code, out, errOut := onTerminal(t, twin.URL, 100, "get", "package", ref)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for name := range record {
		assert.True(t, slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, name+" ") }), "member %q is shown:\n%s", name, out)
	}
	assert.Regexp(t, `(?m)^playersPeak +null$`, out, "null is shown as null")
	for _, l := range lines {
		assert.LessOrEqual(t, textwidth.Width(l), 100, "%q fits the terminal", l)
	}

	org := cat.Organizations[0].Ident
	var o struct{ Packages []any }
	require.NoError(t, json.Unmarshal(cat.Organization(org), &o))
	require.Greater(t, len(o.Packages), 1)
	code, out, errOut = onTerminal(t, twin.URL, 100, "get", "org", org)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^name +\S`, out, "an organization shows every member, not only its ident and name")
	assert.Regexp(t, `(?m)^packages +\{`, out)
	assert.Equal(t, len(o.Packages), strings.Count(out, `"ident":`), "a package a line")

	code, out, errOut = onTerminal(t, twin.URL, 100, "get", "org", org, "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "{\n  \""), "indented: %.40q", out)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &m))
}

// get -o csv without --fields writes every member of the record, in the
// order the service sent them: a list as its JSON text, null as an empty
// cell.
func TestGetCSVHasEveryMember(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
	pkg, srv, org := cat.Packages[0], cat.Servers[0], cat.Organizations[0]
	for _, args := range [][]string{
		{"get", "package", pkg.Kind + "/" + pkg.Ident},
		{"get", "server", srv.ID},
		{"get", "org", org.Ident},
	} {
		code, body, errOut := cli(t, twin.URL, append(args, "-o", "json")...)
		require.Equal(t, 0, code, errOut)
		var rec map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(body), &rec))
		var sent []string // the member names in the order sent
		d := json.NewDecoder(strings.NewReader(body))
		_, err := d.Token()
		require.NoError(t, err)
		for d.More() {
			name, err := d.Token()
			require.NoError(t, err)
			sent = append(sent, name.(string))
			var skip json.RawMessage
			require.NoError(t, d.Decode(&skip))
		}

		code, out, errOut := cli(t, twin.URL, append(args, "-o", "csv")...)
		require.Equal(t, 0, code, errOut)
		rows := csvRows(t, out)
		require.Len(t, rows, 2, out)
		assert.Equal(t, sent, rows[0], "%v: every member, in the record's order", args)
		for i, name := range rows[0] {
			raw := rec[name]
			switch {
			case string(raw) == "null":
				assert.Empty(t, rows[1][i], "%v %s: null is an empty cell", args, name)
			case raw[0] == '[' || raw[0] == '{':
				assert.JSONEq(t, string(raw), rows[1][i], "%v %s: a nested value is its JSON text", args, name)
			}
		}
	}
}

// --fields selects the members shown in every format, so that the help's
// own example works in a pipe: JSON and NDJSON keep those members as sent,
// in --fields' order, a member the record lacks left absent (not null).
func TestFieldsInEveryFormat(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	org := twin.Catalog().Organizations[0].Ident
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "org", org, "--fields", "packages,name"}, `^\{"packages":\[.*\],"name":"[^"]*"\}\n$`},
		{[]string{"get", "org", org, "--fields", "name,packages", "-o", "json"}, `^\{"name":"[^"]*","packages":\[.*\]\}\n$`},
		{[]string{"get", "org", org, "--fields", "name,packages", "-o", "csv"}, `^name,packages\n`},
		{[]string{"list", "--page-size", "2", "--fields", "ident,players"}, `^(\{"ident":"[^"]*","players":(null|\d+)\}\n){2}$`},
		{[]string{"list", "--page-size", "2", "--fields", "ident", "-o", "json"}, `^\[\s*\{"ident":"[^"]*"\},\s*\{"ident":"[^"]*"\}\s*\]\n$`},
		{[]string{"list", "--all", "--kind", "server", "--fields", "id,maxPlayers"}, `^(\{"id":"[^"]*","maxPlayers":(null|\d+)\}\n)+$`},
	} {
		code, out, errOut := cli(t, twin.URL, tt.args...)
		require.Equal(t, 0, code, "%v: %s", tt.args, errOut)
		assert.Regexp(t, tt.want, out, "%v", tt.args)
	}
}
