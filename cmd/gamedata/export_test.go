package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exportedIdents reads the idents an export wrote to path, in CSV or
// NDJSON.
func exportedIdents(t *testing.T, path, format string) []string {
	t.Helper()
	body, err := os.ReadFile(path)
	require.NoError(t, err)
	return exportedIdentsExact(t, body, format)
}

// An export of the whole game directory writes every game exactly once;
// cut after half (the context ends), what it wrote is valid and whole
// rows, and --resume writes the rest without repeating one.
func TestExportCutAndResumed(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"csv", "ndjson"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			twin := gamedatatest.NewServer(gamedatatest.WithSize(60, 0, 3))
			defer twin.Close()
			var want []string
			for _, g := range twin.Catalog().Entries(url.Values{"kind": {"game"}}) {
				want = append(want, g.Ident)
			}
			out := filepath.Join(t.TempDir(), "games."+format)
			args := []string{"--base-url", twin.URL, "--rate", "0", "export", "--kind", "game", "-o", format, "--out", out, "--concurrency", "1"}

			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				// One directory page, then half of the detail records.
				twin.WaitRequests(ctx, 1+len(want)/2)
				cancel()
			}()
			var stdout, stderr bytes.Buffer
			code := run(ctx, args, &stdout, &stderr)
			cancel()
			assert.Equal(t, message.ExitInterrupted, code, "an interrupted export exits 130")
			assert.Contains(t, stderr.String(), "--resume")
			cut := exportedIdents(t, out, format) // parses: every row is whole
			require.NotEmpty(t, cut)
			require.Less(t, len(cut), len(want), "cut before the end")
			assert.Equal(t, want[:len(cut)], cut)
			assert.Contains(t, stderr.String(), fmt.Sprintf("gamedata: export: %d written, 0 skipped, 0 already there, of %d entries\n", len(cut), len(want)),
				"a pipe gets the summary too")

			stdout.Reset()
			stderr.Reset()
			code = run(context.Background(), append(args, "--resume"), &stdout, &stderr)
			require.Equal(t, 0, code, stderr.String())
			assert.Equal(t, fmt.Sprintf("gamedata: export: %d written, 0 skipped, %d already there, of %d entries\n", len(want)-len(cut), len(cut), len(want)),
				stderr.String(), "stderr is a pipe: no progress bar, the summary only")
			assert.Equal(t, want, exportedIdents(t, out, format), "every game exactly once")
		})
	}
}

// Nulls are empty cells in CSV and null in NDJSON, never 0.
func TestExportNulls(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "export", "--kind", "game")
	require.Equal(t, 0, code, errOut)
	rows := ndjson(t, out)
	require.Len(t, rows, len(twin.Catalog().Entries(url.Values{"kind": {"game"}})))
	nulls := 0
	for _, r := range rows {
		if v, ok := r["players"]; ok && v == nil {
			nulls++
		}
	}
	assert.Positive(t, nulls, "null players stay null")
}

// An entry no request can name is skipped and said so on stderr, its kind
// and ident through the sanitizer.
func TestExportSkipLine(t *testing.T) {
	t.Parallel()
	base := fixed(t, map[string]answer{"/api/dashboard": {
		body: `{"items":[{"kind":"\u001b]0;pwned\u0007\u001b[2Jgame","ident":".."}],"pagination":{"hasNext":false}}`,
	}})
	code, out, errOut := cli(t, base, "export")
	require.Equal(t, 0, code, errOut)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "skipped")
	assert.Contains(t, errOut, "skipped package game/..", "the kind is shown sanitized: its escape sequences are gone")
	assertInert(t, errOut, "stderr")
}

// export fetches details page by page as the walk goes, not after it:
// the directory's second page is served only once a detail record was
// asked for.
func TestExportStreamsPages(t *testing.T) {
	t.Parallel()
	twin := newTwin(t, gamedatatest.WithSize(160, 0, 2))
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	require.Greater(t, games, 100, "two pages of games")
	asked := make(chan struct{})
	var once sync.Once
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/packages/") {
			once.Do(func() { close(asked) })
		}
		if r.URL.Path == "/api/dashboard" && r.URL.Query().Get("page") == "2" {
			select {
			case <-asked:
			case <-r.Context().Done():
				return
			}
		}
		twin.Handler().ServeHTTP(w, r)
	}))
	defer s.Close()
	var stdout, stderr bytes.Buffer
	code := run(guard(t), []string{"--base-url", s.URL, "--rate", "0", "export", "--kind", "game"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Len(t, ndjson(t, stdout.String()), games)
}

// On a terminal, export's bar counts the directory's entries of the total
// the service gives in pagination.total, and a summary follows.
func TestExportBarTotal(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	var stdout, stderr bytes.Buffer
	f := newFactory(&stdout, &stderr)
	f.io.errTTY = true
	defer f.close()
	root := newCmdRoot(f, commands(f)...)
	root.SetArgs([]string{"--base-url", twin.URL, "--rate", "0", "export", "--kind", "game"})
	require.NoError(t, root.ExecuteContext(context.Background()))
	assert.Contains(t, stderr.String(), fmt.Sprintf("(%d/%d,", games, games), "the bar's total is the service's")
	assert.Contains(t, stderr.String(), fmt.Sprintf("%d written, 0 skipped, 0 already there, of %d entries", games, games))
	assert.Len(t, ndjson(t, stdout.String()), games)
}

// export writes NDJSON unless -o says csv or --out names a .csv file, as
// chart takes its format from --out, and refuses what it cannot do
// before it runs.
func TestExportOptions(t *testing.T) {
	t.Parallel()
	p, err := parseArgs(t, "export")
	require.NoError(t, err)
	o := p.opts.(*exportOptions)
	assert.Equal(t, "ndjson", o.Format, "NDJSON even on a terminal")
	assert.Equal(t, "game", o.Kind)
	assert.Equal(t, 4, o.Concurrency)

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--out", "games.csv"}, "csv"},
		{[]string{"export", "--out", "GAMES.CSV"}, "csv"},
		{[]string{"export", "--out", "games.ndjson"}, "ndjson"},
		{[]string{"export", "--out", "games"}, "ndjson"},
		{[]string{"export", "--out", "games.csv", "-o", "ndjson"}, "ndjson"},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		assert.Equal(t, tt.want, p.opts.(*exportOptions).Format, "%v: the format from -o, or else --out's extension", tt.args)
	}

	for _, args := range [][]string{
		{"export", "-o", "table"},
		{"export", "--resume"},
		{"export", "--concurrency", "0"},
	} {
		p, err := parseArgs(t, args...)
		assert.True(t, message.IsUsage(err), "%v: %v", args, err)
		assert.Nil(t, p.opts, "%v: refused before it runs", args)
	}
}

// barFrames are the counts an export's bar showed, in order: (done/total).
var barFrames = regexp.MustCompile(`\((\d+)/(\d+),`)

// On a terminal, export's bar starts its clock with the export, drawing
// 0 of the total before the first entry is done (a clock started at the
// first entry made its rate that entry over a few nanoseconds); cut short
// by Ctrl-C, it stays at the entries done, never jumping to the total.
func TestExportBarShowsWhatWasDone(t *testing.T) {
	t.Parallel()
	twin := newTwin(t, gamedatatest.WithSize(250, 6, 5)) // more than a page
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// The first page, its walk, then half of the detail records.
		twin.WaitRequests(ctx, 2+games/2)
		cancel()
	}()
	var stdout, stderr bytes.Buffer
	f := newFactory(&stdout, &stderr)
	f.io.errTTY = true
	code := runWith(ctx, f, []string{"--base-url", twin.URL, "--rate", "0", "export", "--kind", "game", "--concurrency", "1"})
	assert.Equal(t, message.ExitInterrupted, code, "an interrupted export exits 130")
	frames := barFrames.FindAllStringSubmatch(stderr.String(), -1)
	require.NotEmpty(t, frames, stderr.String())
	assert.Equal(t, fmt.Sprintf("(0/%d,", games), frames[0][0], "the first frame is drawn before any entry is done")
	written := len(ndjson(t, stdout.String()))
	require.Less(t, written, games, "cut before the end")
	last := frames[len(frames)-1]
	assert.Equal(t, strconv.Itoa(written), last[1], "the bar stays at the entries done")
	assert.NotContains(t, stderr.String(), fmt.Sprintf("(%d/%d,", games, games), "the bar never shows the total")
	assert.Contains(t, stderr.String(), fmt.Sprintf("export: %d written, 0 skipped, 0 already there, of %d entries\n", written, games),
		"the summary's total is the bar's")
}

// An entry whose record fails is named by its package, not by its index,
// which would count from the start of its page.
func TestExportNamesTheEntryThatFailed(t *testing.T) {
	t.Parallel()
	twin := newTwin(t, gamedatatest.WithSize(250, 6, 5))
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	require.Greater(t, len(games), printer.Page+1, "the failing entry is on the second page")
	bad := games[printer.Page+1].Ident
	fi := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{
		Rate:  1,
		Match: func(r *http.Request) bool { return r.URL.Path == "/api/packages/game/"+bad },
		Answer: func(w http.ResponseWriter, _ *http.Request, _ gamedatatest.Response) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"refused"}`))
		},
	})
	s := httptest.NewServer(fi)
	t.Cleanup(s.Close)
	t.Cleanup(fi.Close)
	var stdout, stderr bytes.Buffer
	code := run(guard(t), []string{"--base-url", s.URL, "--rate", "0", "export", "--kind", "game", "--concurrency", "1"}, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "gamedata: export: package game/"+bad+": GET ")
	assert.NotContains(t, stderr.String(), "item ")
}

// --out names the format: .csv is CSV, .ndjson and .jsonl (and any other
// name) NDJSON, and a .json name, which promises one JSON document, is
// refused before anything is made or sent, naming the names to give.
func TestExportOutNames(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	for _, tt := range []struct {
		out, format string
	}{
		{"games.csv", "csv"},
		{"games.ndjson", "ndjson"},
		{"games.jsonl", "ndjson"},
		{"GAMES.JSONL", "ndjson"},
	} {
		out := filepath.Join(dir, tt.out)
		code, _, errOut := cli(t, twin.URL, "export", "--out", out)
		require.Equal(t, 0, code, "%s: %s", tt.out, errOut)
		body, err := os.ReadFile(out)
		require.NoError(t, err)
		if tt.format == "csv" {
			assert.True(t, strings.HasPrefix(string(body), "kind,ident,"), "%s: %.40q", tt.out, body)
		} else {
			assert.NotEmpty(t, ndjson(t, string(body)), tt.out)
		}
	}
	requests := len(twin.Requests())
	for _, args := range [][]string{
		{"--out", filepath.Join(dir, "games.json")},
		{"--out", filepath.Join(dir, "games.JSON"), "-o", "ndjson"},
		{"--out", filepath.Join(dir, "games.json"), "-o", "csv"},
		{"--out", filepath.Join(dir, "games.json"), "--resume"},
	} {
		out := args[1]
		name := strings.TrimSuffix(out, filepath.Ext(out))
		code, stdout, errOut := cli(t, twin.URL, append([]string{"export"}, args...)...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
		assert.Empty(t, stdout)
		assert.Equal(t, "gamedata: export --out "+out+": a .json name promises one JSON document, and export writes CSV or NDJSON (a record a line, which Ctrl-C leaves valid and --resume continues); name it "+
			name+".ndjson or "+name+".jsonl for NDJSON, or "+name+".csv for CSV\n", errOut, "%v", args)
		assert.NoFileExists(t, out, "%v", args)
	}
	assert.Len(t, twin.Requests(), requests, "nothing sent for a .json name")
}
