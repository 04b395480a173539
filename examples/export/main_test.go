package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// lines decodes JSON Lines.
func lines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "line %q", sc.Text())
		out = append(out, m)
	}
	require.NoError(t, sc.Err())
	return out
}

// entryLines is the entries as JSON Lines, decoded as lines decodes them.
func entryLines(t *testing.T, entries []gamedatatest.Entry) []map[string]any {
	t.Helper()
	var b bytes.Buffer
	for _, e := range entries {
		b.Write(e.JSON())
		b.WriteByte('\n')
	}
	return lines(t, b.Bytes())
}

func TestExportOffline(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-kind", "game", "-format", "jsonl"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "in-process twin")

	twin := gamedatatest.NewServer() // the same seed as the in-process twin
	defer twin.Close()
	want := entryLines(t, twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	require.NotEmpty(t, want)
	assert.Equal(t, want, lines(t, stdout.Bytes()), "every game once, in order, as sent")
	for _, r := range stdout.String() {
		assert.False(t, dangerous(r) || (r < 0x20 && r != '\n'), "raw %U in the output", r)
	}
}

func TestExportQuery(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	c := twin.Catalog()
	tests := []struct {
		args []string
		want []map[string]any
	}{
		{[]string{}, entryLines(t, c.Packages)},
		{[]string{"-kind", "server", "-sort", "players", "-filter", "online", "-filter", "has-players", "-page-size", "9"},
			entryLines(t, c.Entries(url.Values{"kind": {"server"}, "sort": {"players"}, "filter": {"online", "has-players"}}))},
		{[]string{"-kind", "mod", "-details", "-page-size", "4"}, detailRecords(t, c, c.Entries(url.Values{"kind": {"mod"}}))},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"-base-url", twin.URL, "-rate", "0"}, tt.args...)
			require.NoError(t, run(context.Background(), args, &stdout, &stderr), stderr.String())
			assert.Equal(t, tt.want, lines(t, stdout.Bytes()))
			assert.Contains(t, stderr.String(), "export: done: "+strconv.Itoa(len(tt.want))+" entries")
		})
	}
}

func detailRecords(t *testing.T, c *gamedatatest.Catalog, entries []gamedatatest.Entry) []map[string]any {
	t.Helper()
	out := make([]map[string]any, len(entries))
	for i, e := range entries {
		rec := c.Package(e.Kind, e.Ident)
		require.NotNil(t, rec)
		require.NoError(t, json.Unmarshal(rec, &out[i]))
	}
	return out
}

func TestExportCSV(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	out := filepath.Join(t.TempDir(), "packages.csv")
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-base-url", twin.URL, "-rate", "0", "-format", "csv", "-o", out, "-details"}, &stdout, &stderr))
	assert.Empty(t, stdout.String(), "-o takes the output")
	rows := readCSV(t, out)
	require.NotEmpty(t, rows)
	assert.Equal(t, []string{"kind", "ident", "id", "name", "players", "updated", "organization", "description"}, rows[0])
	want := twin.Catalog().Packages
	require.Len(t, rows[1:], len(want))
	for i, row := range rows[1:] {
		assert.Equal(t, want[i].Kind, row[0])
		assert.Equal(t, want[i].Ident, row[1])
		if !want[i].Players.Valid {
			assert.Empty(t, row[4], "null is an empty cell, not 0")
		} else {
			assert.Equal(t, strconv.FormatFloat(want[i].Players.Value, 'f', -1, 64), row[4])
		}
		for _, cell := range row {
			for _, r := range cell {
				assert.False(t, dangerous(r) || r < 0x20, "raw %U in a cell", r)
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows
}

var resumeRE = regexp.MustCompile(`-resume-page (\d+)`)

// TestExportResume interrupts an export (as Ctrl-C would: its context is
// cancelled) and resumes it from the page it names: the file ends up with
// every entry exactly once.
func TestExportResume(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		format string
		// stop says whether a request is where the interruption happens.
		stop func(r *http.Request, n int64) bool
	}{
		{"at a page", []string{"-page-size", "20"}, "jsonl",
			func(r *http.Request, _ int64) bool { return r.URL.Query().Get("page") == "4" }},
		{"inside a page, fetching details", []string{"-page-size", "25", "-details"}, "jsonl",
			func(r *http.Request, n int64) bool { return strings.HasPrefix(r.URL.Path, "/api/packages/") && n == 40 }},
		{"csv", []string{"-page-size", "30", "-kind", "game"}, "csv",
			func(r *http.Request, _ int64) bool { return r.URL.Query().Get("page") == "2" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			twin := gamedatatest.NewServer()
			defer twin.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var n atomic.Int64
			var stopped atomic.Bool
			front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if !stopped.Load() && tt.stop(r, n.Add(1)) {
					stopped.Store(true)
					cancel()
					http.Error(w, `{"error":"interrupted"}`, http.StatusServiceUnavailable)
					return
				}
				twin.Handler().ServeHTTP(w, r)
			}))
			defer front.Close()

			out := filepath.Join(t.TempDir(), "export."+tt.format)
			args := append([]string{"-base-url", front.URL, "-rate", "0", "-format", tt.format, "-o", out}, tt.args...)
			var stderr bytes.Buffer
			require.Error(t, run(ctx, args, new(bytes.Buffer), &stderr))
			m := resumeRE.FindStringSubmatch(stderr.String())
			require.NotNil(t, m, "says where to resume: %s", stderr.String())
			assert.NotEqual(t, "1", m[1], "the interruption came after some pages")

			stderr.Reset()
			require.NoError(t, run(context.Background(), append(args, "-resume-page", m[1]), new(bytes.Buffer), &stderr), stderr.String())

			kind := ""
			if i := indexOf(tt.args, "-kind"); i >= 0 {
				kind = tt.args[i+1]
			}
			want := twin.Catalog().Entries(url.Values{"kind": {kind}})
			var got []string
			if tt.format == "csv" {
				rows := readCSV(t, out)
				assert.Equal(t, "kind", rows[0][0], "one header")
				for _, row := range rows[1:] {
					got = append(got, row[0]+"/"+row[1])
				}
			} else {
				b, err := os.ReadFile(out)
				require.NoError(t, err)
				for _, e := range lines(t, b) {
					got = append(got, e["kind"].(string)+"/"+e["ident"].(string))
				}
			}
			var keys []string
			for _, e := range want {
				keys = append(keys, e.Kind+"/"+e.Ident)
			}
			assert.Equal(t, keys, got, "every entry exactly once, in order")
		})
	}
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"-format", "xml"}, {"-resume-page", "0"}, {"-rate", "-1"}, {"-page-size", "101"}, {"-page-size", "0"}, {"extra"}, {"-nope"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Error(t, run(context.Background(), args, &stdout, &stderr), "%q", args)
		assert.Empty(t, stdout.String())
	}
}

func TestEscapeControls(t *testing.T) {
	in := []byte(`{"t":"a` + "\u202e\u009b\u2066\x7f\u2028" + `b ünï 🎮"}`)
	got := escapeControls(in)
	assert.Equal(t, `{"t":"a\u202e\u009b\u2066\u007f\u2028b ünï 🎮"}`, string(got))
	var a, b map[string]any
	require.NoError(t, json.Unmarshal(in, &a))
	require.NoError(t, json.Unmarshal(got, &b))
	assert.Equal(t, a, b, "the data is unchanged")
}

// An entry whose ident the SDK refuses to send, the dot segment "..", is
// skipped with the reason on stderr; the export goes on and succeeds.
func TestExportSkipsEntriesTheSDKCannotRequest(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithAwkwardIdents())
	defer twin.Close()
	out := filepath.Join(t.TempDir(), "packages.jsonl")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-base-url", twin.URL, "-rate", "0", "-kind", "game", "-details", "-o", out}, &stdout, &stderr)
	require.NoError(t, err)
	assert.Contains(t, stderr.String(), `export: skipped game/.., which no request can name: gamedata: package ident ".." is a dot segment, not an identifier`)
	assert.Contains(t, stderr.String(), fmt.Sprintf("export: done: %d entries", len(twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}}))-1))
	body, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	assert.Len(t, lines, len(twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}}))-1, "every game but the one skipped")
}

// Identifiers are service text too: a kind, ident or server id reaches a
// CSV cell and stderr only sanitized, and a cell is kept from being read
// as a formula.
func TestExportSanitizesIdentifiers(t *testing.T) {
	page := `{"items":[` +
		`{"kind":"` + `\u001b]0;pwned\u0007\u001b[2Jgame` + `","ident":"=HYPERLINK(1)","title":"t","players":1},` +
		`{"kind":"\u001b[2Jgame","ident":".."},` +
		`{"kind":"server","id":"+cmd\u001b[2J","name":"s","players":2}` +
		`],"pagination":{"hasNext":false}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/dashboard" {
			fmt.Fprint(w, page)
			return
		}
		fmt.Fprint(w, `{"title":"t"}`)
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "d.csv")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-base-url", srv.URL, "-rate", "0", "-format", "csv", "-details", "-o", out}, &stdout, &stderr)
	require.NoError(t, err)
	body, err := os.ReadFile(out)
	require.NoError(t, err)
	for _, s := range []string{string(body), stderr.String()} {
		assert.NotContains(t, s, "\x1b", "no escape sequence from the service survives")
		assert.NotContains(t, s, "\x07")
	}
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, 3, "the header, and every entry but the one no request can name")
	assert.Contains(t, stderr.String(), "export: skipped "+gamedata.NewUntrusted("\x1b[2Jgame/..").String()+",", "the skipped entry is named, sanitized")
	assert.Equal(t, gamedata.NewUntrusted("\x1b]0;pwned\x07\x1b[2Jgame").String(), rows[1][0], "the kind, sanitized")
	assert.Equal(t, "'=HYPERLINK(1)", rows[1][1], "an ident is kept from being read as a formula")
	assert.Equal(t, "'+cmd", rows[2][2], "a server id too")
}
