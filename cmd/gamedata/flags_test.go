package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/transform"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each command shows the flags it uses and no other: the service's flags
// only where it calls the service, -o with the formats it writes, --jq
// and --template where it prints records; the root shows none of them.
func TestEachCommandShowsTheFlagsItUses(t *testing.T) {
	t.Parallel()
	const records = "json, ndjson, csv or table"
	service := []string{"--base-url", "--twin", "--rate", "--cache-dir", "--record", "--record-mode", "--replay"}
	cases := []struct {
		command string
		service bool
		output  string // -o's formats, "" for none
		jq      bool
	}{
		{"list", true, records, true},
		{"orgs", true, records, true},
		{"get", true, records, true},
		{"search", true, records, true},
		{"activity", true, records, true},
		{"analytics", true, records, true},
		{"export", true, "csv or ndjson", false},
		{"chart", true, "", false},
		{"sync", true, "", false},
		{"watch", true, "table or ndjson", true},
		{"exporter", true, "", false},
		{"backfill", true, "", false},
		{"prune", false, "", false},
		{"api", true, "", true},
	}
	f := newFactory(io.Discard, io.Discard)
	require.Len(t, cases, len(commands(f)), "every command is here")
	for _, tt := range cases {
		code, out, errOut := cli(t, "", "help", tt.command)
		require.Equal(t, 0, code, errOut)
		assert.NotContains(t, out, "inherited", tt.command)
		for _, flag := range service {
			assert.Equal(t, tt.service, strings.Contains(out, flag+" "), "%s %s", tt.command, flag)
		}
		if tt.output == "" {
			assert.NotContains(t, out, "--output", tt.command)
		} else {
			assert.Regexp(t, `-o, --output string +output format: `+regexp.QuoteMeta(tt.output)+` \(default`, out, tt.command)
		}
		assert.Equal(t, tt.jq, strings.Contains(out, "--jq "), "%s --jq", tt.command)
		assert.Contains(t, out, "--timeout ", tt.command)
	}
	code, out, errOut := cli(t, "", "--help")
	require.Equal(t, 0, code, errOut)
	_, flags, ok := strings.Cut(out, "\nFlags:\n")
	require.True(t, ok, out)
	for _, flag := range append(service, "--output", "--timeout") {
		assert.NotContains(t, flags, flag, "the root takes no %s", flag)
	}
}

// Every usage error is found before the twin starts or anything is sent:
// it exits 2 with one line that names the flag or the argument at fault
// and what to give, and no line about the twin.
func TestUsageErrorsStartNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notNDJSON := filepath.Join(dir, "games.txt")
	require.NoError(t, os.WriteFile(notNDJSON, []byte("kind,ident\ngame,x\n"), 0o644))
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"list", "--page-size", "500"}, "list --page-size 500: want 1 to 100, or 0 for the service's default"},
		{[]string{"list", "--page-size", "-1"}, "list --page-size -1: want 1 to 100"},
		{[]string{"orgs", "--page", "0"}, "orgs --page 0: want 1 or more"},
		{[]string{"list", "-o", "yaml"}, `list -o "yaml": want json, ndjson, csv or table`},
		{[]string{"watch", "-o", "csv"}, `watch -o "csv": want table or ndjson`},
		{[]string{"export", "-o", "json"}, `export -o "json": want csv or ndjson`},
		{[]string{"get", "package", "game/x", "--rate", "-1"}, "get --rate -1: want a number of requests a second, or 0 for no limit"},
		{[]string{"search", "x", "--timeout", "-1s"}, "search --timeout -1s: want 0 (no limit) or more"},
		{[]string{"get", "package", "game/.."}, `package game/..: ".." is a path's dot segment, which no request can name; check the identifier`},
		{[]string{"get", "server", "."}, `get server ".": "." is a path's dot segment`},
		{[]string{"get", "server", ""}, `get server "": an empty identifier names no record; give one`},
		{[]string{"get", "org", ".."}, `get org "..": ".." is a path's dot segment`},
		{[]string{"analytics", "org", ".."}, `analytics org "..": ".." is a path's dot segment`},
		{[]string{"analytics", "org", ""}, `analytics org "": an empty identifier names no record; give one`},
		{[]string{"chart", "package", "../x", "--term"}, `package ../x: ".." is a path's dot segment`},
		{[]string{"watch", "package", "game/."}, `package game/.: "." is a path's dot segment`},
		{[]string{"list", "--jq", ".[", "-o", "json"}, "--jq"},
		{[]string{"export", "--resume", "--out", notNDJSON}, "line 1 is not a JSON object: this is not NDJSON"},
		{[]string{"prune", "--twin"}, "unknown flag: --twin: prune does not take it"},
		{[]string{"chart", "package", "game/x", "--range", "7d", "--term"}, "chart package --range: a package's chart is its whole analytics history, which has no range; leave --range out"},
		{[]string{"watch", "package", "game/x", "--kind", "game"}, "watch package … --kind: the packages named are watched, not a directory; leave --kind out"},
	} {
		code, out, errOut := runEnv(t, nil, tt.args...)
		assert.Equal(t, 2, code, "%v: %s", tt.args, errOut)
		assert.Empty(t, out, "%v", tt.args)
		assert.NotContains(t, errOut, "twin of the service", "%v: refused before the twin starts", tt.args)
		assert.True(t, strings.HasPrefix(errOut, "gamedata: "), "%v: %q", tt.args, errOut)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", tt.args, errOut)
		assert.Contains(t, errOut, tt.says, "%v", tt.args)
	}
}

// --jq and --template are bound into the options of each command that
// prints records, as gh's AddJSONFlags binds them: a command stopped
// once its flags are parsed holds them, and the transform they ask for.
func TestTransformFlagsInOptions(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"list"}, {"orgs"}, {"get", "package", "game/x"}, {"search", "x"},
		{"activity"}, {"analytics", "org", "o"}, {"watch"},
	} {
		for _, tt := range []struct {
			flag string
			want transform.Flags
		}{
			{"--jq", transform.Flags{JQ: ".[0]"}},
			{"--template", transform.Flags{Template: "{{.}}"}},
		} {
			value := tt.want.JQ + tt.want.Template
			p, err := parseArgs(t, append(args, tt.flag, value)...)
			require.NoError(t, err, "%v %s", args, tt.flag)
			assert.Equal(t, tt.want, p.common.TransformFlags, "%v %s", args, tt.flag)
			assert.NotNil(t, p.common.Transform, "%v %s", args, tt.flag)
		}
		p, err := parseArgs(t, args...)
		require.NoError(t, err, "%v", args)
		assert.Zero(t, p.common.TransformFlags, "%v", args)
		assert.Nil(t, p.common.Transform, "%v", args)
	}
}

// What a flag's default cannot say, whether the command line gave the
// flag, is in the options once the flags are parsed, also when the
// value given is the default.
func TestGivenFlagsInOptions(t *testing.T) {
	t.Parallel()
	given := func(p parsed) []bool {
		g := []bool{p.common.timeoutGiven, p.common.Service.baseURLGiven, p.common.Service.cacheDirGiven}
		if o, ok := p.opts.(*chartOptions); ok {
			g = append(g, o.rangeGiven)
		}
		return g
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want []bool // --timeout, --base-url, --cache-dir, and chart's --range
	}{
		{[]string{"get", "package", "game/x"}, []bool{false, false, false}},
		{[]string{"get", "package", "game/x", "--timeout", "2m", "--base-url", "", "--cache-dir", dir}, []bool{true, true, true}},
		{[]string{"chart", "activity", "--term"}, []bool{false, false, false, false}},
		{[]string{"chart", "activity", "--term", "--range", "7d", "--timeout", "0"}, []bool{true, false, false, true}},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		assert.Equal(t, tt.want, given(p), "%v", tt.args)
	}
}
