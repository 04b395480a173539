package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/progress"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rowCounts(t *testing.T, db *sql.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"directory", "directory_values", "packages", "servers", "history", "activity_points", "runs"} {
		var n int
		require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM "+table).Scan(&n))
		out[table] = n
	}
	return out
}

// summaryLine is the one line every run prints on stderr.
var summaryLine = regexp.MustCompile(`^gamedata: sync: run (\d+) (ok|failed|interrupted) in \S+: (\d+) entries \((\d+) new, (\d+) changed, (\d+) gone\), (\d+) details, (\d+) reports, (\d+) activity points; \d+ rows added, \d+ changed; (\d+) requests, (\d+) bytes read; (\d+) failed$`)

// A sync records the directory, the records, the reports and the
// activity, and says so in one line on stderr, in a pipe too; a run over
// unchanged data costs the directory's pages and the activity, and adds
// no row but its own in runs; after the service's data moves on, the new
// points are added.
func TestSync(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 3, 3))
	defer twin.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "games.sqlite")
	runSync := func() []string {
		t.Helper()
		code, out, errOut := cli(t, twin.URL, "--cache-dir", filepath.Join(dir, "http"), "sync", "--db", path, "--range", "24h")
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, out)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		require.Len(t, lines, 1, "one line on stderr, in a pipe too")
		m := summaryLine.FindStringSubmatch(lines[0])
		require.NotNil(t, m, lines[0])
		return m[1:]
	}
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	n := strconv.Itoa(games)
	first1 := runSync()
	assert.Equal(t, []string{"1", "ok", n, n, "0", "0", n, n}, first1[:8])
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	first := rowCounts(t, db)
	assert.Equal(t, games, first["directory"])
	assert.Equal(t, games, first["packages"])
	assert.Positive(t, first["directory_values"])
	assert.Positive(t, first["history"])
	var activity struct{ Points []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("24h"), &activity))
	assert.Len(t, activity.Points, first["activity_points"])

	var nulls, zeros int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM activity_points WHERE players IS NULL`).Scan(&nulls))
	assert.Positive(t, nulls, "unavailable players are NULL")
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM history WHERE players IS NULL`).Scan(&nulls))
	assert.Positive(t, nulls, "unavailable history players are NULL")
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM history WHERE players = 0`).Scan(&zeros))
	assert.Zero(t, zeros, "never 0 for unavailable")

	before := len(twin.Requests())
	second := runSync()
	assert.Equal(t, []string{"2", "ok", n, "0", "0", "0", "0", "0"}, second[:8])
	assert.Equal(t, "2", second[9], "a page and the activity")
	assert.Equal(t, "0", second[10], "304s read no body")
	var bytes1, bytes2 string
	require.NoError(t, db.QueryRow(`SELECT CAST(bytes_read AS TEXT) FROM runs WHERE run_id = 1`).Scan(&bytes1))
	require.NoError(t, db.QueryRow(`SELECT CAST(bytes_read AS TEXT) FROM runs WHERE run_id = 2`).Scan(&bytes2))
	assert.Equal(t, []string{first1[10], "0"}, []string{bytes1, bytes2}, "the runs table says what the summary said")
	assert.Greater(t, atoi(t, bytes1), 1000, "the first run read the bodies")
	assert.Len(t, twin.Requests()[before:], 2)
	for _, r := range twin.Requests()[before:] {
		assert.Equal(t, http.StatusNotModified, r.Status, "answered from the cache: %s", r.Path)
	}
	after := rowCounts(t, db)
	assert.Equal(t, first["runs"]+1, after["runs"])
	after["runs"] = first["runs"]
	assert.Equal(t, first, after, "a run over unchanged data adds no row")

	twin.Advance(2 * time.Hour)
	runSync()
	assert.Greater(t, rowCounts(t, db)["activity_points"], first["activity_points"], "new points are added")
}

// An item that fails is recorded and skipped: the run goes on to the
// end, prints its summary and exits 1 with a line that says how many
// failed.
func TestSyncFailedItemExits1(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 3, 3))
	defer twin.Close()
	g := twin.Catalog().Entries(url.Values{"kind": {"game"}})[1]
	twin.SetFaults(gamedatatest.Faults{Rate: 1,
		Match:  func(r *http.Request) bool { return r.URL.Path == "/api/packages/game/"+g.Ident },
		Answer: func(w http.ResponseWriter, r *http.Request, _ gamedatatest.Response) { http.NotFound(w, r) }})
	path := filepath.Join(t.TempDir(), "games.sqlite")
	code, _, errOut := cli(t, twin.URL, "sync", "--db", path, "--no-cache")
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	require.Len(t, lines, 2, errOut)
	m := summaryLine.FindStringSubmatch(lines[0])
	require.NotNil(t, m, lines[0])
	assert.Equal(t, []string{"failed", "1"}, []string{m[2], m[12]})
	assert.Positive(t, atoi(t, m[9]), "the activity was synced after the failure")
	assert.Equal(t, "gamedata: sync: 1 item(s) failed after their retries: see the failures table (run 1); the next run fetches them again", lines[1])
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// Bad flags are refused before anything is opened or sent.
func TestSyncUsage(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"sync"},
		{"sync", "--db", filepath.Join(dir, "a.sqlite"), "--details-every", "-1h"},
		{"sync", "--db", filepath.Join(dir, "a.sqlite"), "--history-every", "-1s"},
		{"--cache-dir", dir, "sync", "--db", filepath.Join(dir, "a.sqlite"), "--no-cache"},
	} {
		code, _, errOut := cli(t, twin.URL, args...)
		assert.Equal(t, 2, code, "%v: %s", args, errOut)
	}
	assert.Empty(t, twin.Requests())
	_, err := os.Stat(filepath.Join(dir, "a.sqlite"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// Without --cache-dir, sync keeps its HTTP cache under the user cache
// directory: the second run's pages are 304s.
func TestSyncDefaultCache(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", home)
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 3, 3))
	defer twin.Close()
	path := filepath.Join(t.TempDir(), "games.sqlite")
	for range 2 {
		code, _, errOut := cli(t, twin.URL, "sync", "--db", path)
		require.Equal(t, 0, code, errOut)
	}
	last := twin.Requests()[len(twin.Requests())-2:]
	for _, r := range last {
		assert.Equal(t, http.StatusNotModified, r.Status, r.Path)
	}
	st, err := os.Stat(filepath.Join(home, "gamedata"))
	require.NoError(t, err)
	assert.True(t, st.IsDir())
}

// The bar shows each stage's items, and a stage cut short stays where it
// stopped instead of jumping to its total.
func TestSyncBar(t *testing.T) {
	t.Parallel()
	var w bytes.Buffer
	b := progress.NewSyncBar(&w)
	for _, p := range []collect.Progress{
		{Stage: collect.StageDirectory, Done: 0, Total: -1},
		{Stage: collect.StageDirectory, Done: 100, Total: -1},
		{Stage: collect.StageDetails, Done: 0, Total: 0},
		{Stage: collect.StageReports, Done: 0, Total: 40},
		{Stage: collect.StageReports, Done: 40, Total: 40},
		{Stage: collect.StageActivity, Done: 0, Total: 1},
	} {
		b.Update(p)
	}
	b.End()
	out := w.String()
	assert.Contains(t, out, "sync: directory")
	assert.NotContains(t, out, "sync: details", "nothing due: no bar")
	assert.Contains(t, out, "40/40")
	assert.Contains(t, out, "sync: activity")
	assert.NotContains(t, out, "1/1", "the activity, interrupted, is not shown done")
}

// The directory's walk, whose length is unknown while it runs, ends as a
// finished bar at the length it found, not as a spinner's count.
func TestSyncBarFinishesTheDirectory(t *testing.T) {
	t.Parallel()
	var w bytes.Buffer
	b := progress.NewSyncBar(&w)
	for _, p := range []collect.Progress{
		{Stage: collect.StageDirectory, Done: 0, Total: -1},
		{Stage: collect.StageDirectory, Done: 100, Total: -1},
		{Stage: collect.StageDirectory, Done: 197, Total: -1},
		{Stage: collect.StageDirectory, Done: 197, Total: 197},
	} {
		b.Update(p)
	}
	b.End()
	frames := strings.Split(strings.TrimSpace(w.String()), "\r")
	last := strings.TrimSpace(frames[len(frames)-1])
	assert.Regexp(t, `^sync: directory 100% \(197/197\) \[\d+s\]$`, last, "finished, at the length found")
}

// Several syncs started at once on a file that does not exist yet all
// succeed: the schema version is read and migrated in one write
// transaction, so one run migrates and the others find it done.
func TestSyncConcurrentFirstRuns(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(2, 1, 1), gamedatatest.WithHistoryPoints(4))
	defer twin.Close()
	path := filepath.Join(t.TempDir(), "new.sqlite")
	const runs = 6
	var wg sync.WaitGroup
	codes := make([]int, runs)
	errs := make([]string, runs)
	start := make(chan struct{})
	for i := range runs {
		wg.Go(func() {
			var stdout, stderr bytes.Buffer
			<-start
			codes[i] = run(context.Background(), []string{"--base-url", twin.URL, "--rate", "0", "sync", "--db", path, "--range", "24h", "--no-cache"}, &stdout, &stderr)
			errs[i] = stderr.String()
		})
	}
	close(start)
	wg.Wait()
	for i := range runs {
		assert.Equal(t, 0, codes[i], "run %d: %s", i, errs[i])
	}
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	var versions, ok int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM schema_version`).Scan(&versions))
	assert.Equal(t, store.Version, versions, "each migration applied once")
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM runs WHERE outcome = 'ok'`).Scan(&ok))
	assert.Equal(t, runs, ok)
}

// A database of a newer schema version is refused before anything about
// the file changes: its bytes and its journal mode stay as they were, and
// no WAL file appears.
func TestSyncRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	path := filepath.Join(t.TempDir(), "newer.sqlite")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(`PRAGMA journal_mode=DELETE;
		CREATE TABLE schema_version (version INTEGER NOT NULL);
		INSERT INTO schema_version (version) VALUES (99);
		CREATE TABLE future (x TEXT)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	code, _, errOut := cli(t, twin.URL, "sync", "--db", path, "--no-cache")
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "schema version 99 is newer")

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file's bytes are unchanged")
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		assert.NoFileExists(t, path+suffix)
	}
	db, err = sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	var mode string
	require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	assert.Equal(t, "delete", mode)
}

// A service that cannot be reached is said as every command says it,
// after the run's summary; the run stops at the first request instead of
// failing every item, and records that failure.
func TestSyncUnreachableService(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.sqlite")
	// Port 0 can never be listened on: refused every time.
	code, out, errOut := cli(t, "http://127.0.0.1:0", "sync", "--db", path, "--no-cache")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	require.Len(t, lines, 2, errOut)
	assert.Regexp(t, `^gamedata: sync: run 1 failed in \S+: 0 entries \(0 new, 0 changed, 0 gone\), walk incomplete, 0 details, 0 reports, 0 activity points; 0 rows added, 0 changed; \d+ requests, 0 bytes read; 1 failed$`, lines[0],
		"the page failed, and nothing after it was tried")
	assert.Regexp(t, `^gamedata: could not reach the service at http://127\.0\.0\.1:0: dial tcp .*connection refused; check --base-url and the network$`, lines[1])
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	var stage, item string
	require.NoError(t, db.QueryRow(`SELECT stage, item FROM failures`).Scan(&stage, &item))
	assert.Equal(t, []string{"directory", "page 1"}, []string{stage, item})
}

// A kind the service does not know is answered with its default
// directory: sync says so and writes nothing, neither into a new
// database nor over one that holds the kind it was answered with.
func TestSyncKindTheServiceDoesNotKnow(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 3, 3), gamedatatest.WithHistoryPoints(4))
	defer twin.Close()
	dir := t.TempDir()
	for _, typo := range []string{"gmae", "servers"} {
		t.Run(typo, func(t *testing.T) {
			path := filepath.Join(dir, typo+".sqlite")
			code, _, errOut := cli(t, twin.URL, "sync", "--db", path, "--no-cache", "--range", "24h")
			require.Equal(t, 0, code, errOut)
			db, err := sql.Open("sqlite", path)
			require.NoError(t, err)
			defer db.Close()
			before := rowCounts(t, db)
			var listings string
			require.NoError(t, db.QueryRow(`SELECT GROUP_CONCAT(DISTINCT listing) FROM directory`).Scan(&listings))

			code, out, errOut := cli(t, twin.URL, "sync", "--db", path, "--no-cache", "--kind", typo)
			assert.Equal(t, 1, code)
			assert.Empty(t, out)
			assert.Regexp(t, `^gamedata: sync: the service served "\w+"/"[^"]+" for --kind "`+typo+`": it does not know the kind "`+typo+`", and answers an unknown kind with its default directory; nothing was written: check --kind\n$`, errOut)
			assert.Equal(t, before, rowCounts(t, db), "nothing written, no run recorded")
			var after string
			require.NoError(t, db.QueryRow(`SELECT GROUP_CONCAT(DISTINCT listing) FROM directory`).Scan(&after))
			assert.Equal(t, listings, after)
		})
	}
}

// Text columns hold the text as sent, escape sequences included (the
// docs/collecting.md says so, and that sqlite3 and psql print them raw); only a NUL
// byte, which PostgreSQL's text cannot hold, becomes U+FFFD.
func TestSyncKeepsTextAsSent(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(2, 1, 1), gamedatatest.WithHistoryPoints(4))
	defer twin.Close()
	const title = "\x1b]0;owned\x07\x1b[31mRed\u202eTitle"
	require.NoError(t, twin.AddPackage("game", "esc", title))
	require.NoError(t, twin.AddPackage("game", "nul", "a\x00b"))
	path := filepath.Join(t.TempDir(), "g.sqlite")
	code, _, errOut := cli(t, twin.URL, "sync", "--db", path, "--no-cache", "--range", "24h")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, errOut, "\x1b", "stderr is still sanitized")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	for _, table := range []string{"directory", "packages"} {
		var got string
		require.NoError(t, db.QueryRow(`SELECT title FROM `+table+` WHERE ident = 'esc'`).Scan(&got))
		assert.Equal(t, title, got, table)
		require.NoError(t, db.QueryRow(`SELECT title FROM `+table+` WHERE ident = 'nul'`).Scan(&got))
		assert.Equal(t, "a\ufffdb", got, table)
	}
}
