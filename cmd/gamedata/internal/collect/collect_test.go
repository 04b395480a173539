package collect

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// sqliteDB is openDB of a new SQLite file.
func sqliteDB(t *testing.T) (*store.DB, *sql.DB) {
	return openDB(t, filepath.Join(t.TempDir(), "g.sqlite"))
}

// fastRetries make a failing request give up quickly.
var fastRetries = []gamedata.Option{gamedata.WithRetryMax(1), gamedata.WithBackoff(time.Millisecond, 2*time.Millisecond)}

// An item that fails after its retries is recorded and skipped: the run
// goes on to the end, activity included, and ends failed, naming how
// many failed. The next run fetches them again.
func TestFailedItemsAreRecordedAndSkipped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	twin := smallTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	broken := map[string]bool{
		"/api/packages/game/" + games[3].Ident:           true,
		"/api/packages/game/" + games[7].Ident:           true,
		"/api/analytics/packages/game/" + games[5].Ident: true,
	}
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500},
		Match: func(r *http.Request) bool { return broken[r.URL.Path] }})
	db, read := sqliteDB(t)
	c := newClient(t, twin, "", fastRetries...)
	s, err := Run(ctx, c, db, options("game", "24h", at(start)))
	require.ErrorContains(t, err, "3 item(s) failed after their retries: see the failures table (run 1); the next run fetches them again")
	assert.Equal(t, store.OutcomeFailed, s.Outcome)
	assert.Equal(t, 3, s.Failed)
	assert.Equal(t, len(games)-2, s.Details)
	assert.Equal(t, len(games)-1, s.Reports)
	assert.Positive(t, s.Points, "the run went on to the activity")
	assert.Equal(t, []string{"details game/" + games[3].Ident, "details game/" + games[7].Ident, "reports game/" + games[5].Ident},
		failures(t, read, s.Run))
	assert.Equal(t, "failed", query[string](t, read, `SELECT outcome FROM runs WHERE run_id = $1`, s.Run))
	assert.Equal(t, 3, query[int](t, read, `SELECT failures FROM runs WHERE run_id = $1`, s.Run))
	stored := query[string](t, read, `SELECT error FROM failures WHERE item = $1`, "game/"+games[3].Ident)
	assert.Contains(t, stored, "500")
	assert.NotContains(t, stored, "item ", "the item column names the item: an index within one batch says less")

	twin.SetFaults(gamedatatest.Faults{})
	n := len(twin.Requests())
	s, err = Run(ctx, c, db, options("game", "24h", at(start.Add(time.Hour))))
	require.NoError(t, err)
	assert.Equal(t, []int{2, 1}, []int{s.Details, s.Reports}, "the failed items, and nothing else")
	assert.Len(t, twin.Requests()[n:], 1+2+1+1)
}

func failures(t *testing.T, read *sql.DB, run int64) []string {
	t.Helper()
	rows, err := read.Query(`SELECT stage, item FROM failures WHERE run_id = $1 ORDER BY stage, item`, run)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var stage, item string
		require.NoError(t, rows.Scan(&stage, &item))
		out = append(out, stage+" "+item)
	}
	require.NoError(t, rows.Err())
	return out
}

// An interrupt stops the run where it is: what it fetched is written,
// the run is recorded as interrupted, and the next run goes on from
// there without fetching anything twice.
func TestInterruptKeepsWhatWasFetched(t *testing.T) {
	t.Parallel()
	twin := smallTwin(t)
	db, read := sqliteDB(t)
	c := newClient(t, twin, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := options("game", "24h", at(start))
	o.Progress = func(p Progress) {
		if p.Stage == StageReports && p.Done == 5 {
			cancel()
		}
	}
	s, err := Run(ctx, c, db, o)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "interrupted (context canceled): what was fetched is kept; run sync again to go on")
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	assert.Equal(t, store.OutcomeInterrupted, s.Outcome)
	assert.Equal(t, []int{games, games, 0}, []int{s.Entries, s.Details, s.Points})
	assert.GreaterOrEqual(t, s.Reports, 5, "the five, and any other that arrived before the interrupt")
	assert.Less(t, s.Reports, games)
	assert.Equal(t, games, query[int](t, read, `SELECT COUNT(*) FROM packages`), "every record fetched is kept")
	assert.Equal(t, s.Reports, query[int](t, read, `SELECT COUNT(DISTINCT ident) FROM history`))
	assert.Equal(t, "interrupted", query[string](t, read, `SELECT outcome FROM runs WHERE finished_at IS NOT NULL`))
	assert.Zero(t, s.Failed, "an interrupt is not a failure")

	n := len(twin.Requests())
	s2, err := Run(context.Background(), c, db, options("game", "24h", at(start.Add(time.Minute))))
	require.NoError(t, err)
	assert.Equal(t, []int{0, games - s.Reports}, []int{s2.Details, s2.Reports}, "the rest, and nothing written before")
	assert.Empty(t, paths(twin.Requests()[n:], "/api/packages/"), "no record fetched twice")
	assert.Equal(t, games, query[int](t, read, `SELECT COUNT(DISTINCT ident) FROM history`))
}

// An entry that leaves the directory is recorded as gone, and as new
// when it comes back; the value at each run says so.
func TestGoneAndBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	twin := smallTwin(t)
	db, read := sqliteDB(t)
	c := newClient(t, twin, "")
	g := twin.Catalog().Entries(url.Values{"kind": {"game"}})[2]
	_, err := Run(ctx, c, db, options("game", "24h", at(start)))
	require.NoError(t, err)

	require.NoError(t, twin.RemovePackage(g.Kind, g.Ident))
	s2, err := Run(ctx, c, db, options("game", "24h", at(start.Add(time.Hour))))
	require.NoError(t, err)
	assert.Equal(t, 1, s2.Gone)
	assert.Equal(t, start.Add(time.Hour).Unix(), query[int64](t, read, `SELECT gone_at FROM directory WHERE ident = $1`, g.Ident))
	assert.Positive(t, query[int](t, read, `SELECT COUNT(*) FROM directory_values WHERE ident = $1 AND listed = 0`, g.Ident))
	assert.Zero(t, query[int](t, read, `SELECT COUNT(*) FROM directory_at_run WHERE run_id = $1 AND ident = $2`, s2.Run, g.Ident))
	assert.Zero(t, s2.Details+s2.Reports, "nothing is fetched for an entry that left")

	require.NoError(t, twin.AddPackage(g.Kind, g.Ident, "Back again"))
	s3, err := Run(ctx, c, db, options("game", "24h", at(start.Add(2*time.Hour))))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0, 1}, []int{s3.New, s3.Gone, s3.Details}, "new again, and its record fetched: its updatedAt moved")
	assert.Positive(t, query[int](t, read, `SELECT COUNT(*) FROM directory_at_run WHERE run_id = $1 AND ident = $2`, s3.Run, g.Ident))
	assert.Equal(t, "Back again", query[string](t, read, `SELECT title FROM packages WHERE ident = $1`, g.Ident))
}

// A walk cut by a page that fails records the failure and marks no one
// as gone: the entries it did not reach may well still be listed.
func TestCutWalkMarksNoOneGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(1, 101, 1)) // two pages of servers
	defer twin.Close()
	db, read := sqliteDB(t)
	c := newClient(t, twin, "", fastRetries...)
	_, err := Run(ctx, c, db, options("server", "24h", at(start)))
	require.NoError(t, err)

	twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503},
		Match: func(r *http.Request) bool { return r.URL.Path == "/api/dashboard" && r.URL.Query().Get("page") == "2" }})
	s, err := Run(ctx, c, db, options("server", "24h", at(start.Add(time.Hour))))
	require.Error(t, err)
	assert.False(t, s.Complete)
	assert.Equal(t, 100, s.Entries)
	assert.Zero(t, s.Gone)
	assert.Zero(t, query[int](t, read, `SELECT COUNT(*) FROM directory WHERE gone_at IS NOT NULL`))
	assert.Equal(t, []string{"directory page 2"}, failures(t, read, s.Run))
	assert.Positive(t, s.Points, "the run went on")
	assert.Equal(t, 0, query[int](t, read, `SELECT directory_complete FROM runs WHERE run_id = $1`, s.Run))
	assert.True(t, strings.HasSuffix(s.String(), "1 failed"), s.String())
	assert.Contains(t, s.String(), "walk incomplete")
}

// A directory of servers: their records by id, no analytics reports.
func TestServers(t *testing.T) {
	t.Parallel()
	twin := smallTwin(t)
	db, read := sqliteDB(t)
	s, err := Run(context.Background(), newClient(t, twin, ""), db, options("server", "24h", at(start)))
	require.NoError(t, err)
	servers := len(twin.Catalog().Servers)
	assert.Equal(t, []int{servers, servers, 0}, []int{s.Entries, s.Details, s.Reports})
	assert.Equal(t, servers, query[int](t, read, `SELECT COUNT(*) FROM servers WHERE max_players IS NOT NULL`))
	assert.Positive(t, query[int](t, read, `SELECT COUNT(*) FROM directory_values WHERE id <> '' AND member = 'maxPlayers'`))
}

// An interrupt in the middle of a batch of detail records keeps every
// record that arrived before it, records no failure, and the next run
// fetches the rest and nothing twice. Records are fetched one at a time
// here, and the interrupt comes while the service answers the tenth: the
// nine before it arrived.
func TestInterruptMidBatch(t *testing.T) {
	t.Parallel()
	twin := smallTwin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var details atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/packages/") && details.Add(1) == 10 {
			cancel()
			<-r.Context().Done() // the client gave up
			return
		}
		twin.Handler().ServeHTTP(w, r)
	}))
	defer front.Close()
	c, err := gamedata.NewClient(front.URL, gamedata.WithRateLimit(rate.Inf, 1), gamedata.WithCache(nil))
	require.NoError(t, err)
	db, read := sqliteDB(t)
	o := options("game", "24h", at(start))
	o.Concurrency = 1
	s, err := Run(ctx, c, db, o)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 9, s.Details)
	assert.Equal(t, 9, query[int](t, read, `SELECT COUNT(*) FROM packages`), "every record that arrived is kept")
	assert.Zero(t, s.Failed)
	assert.Empty(t, failures(t, read, s.Run))

	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	n := len(twin.Requests())
	s2, err := Run(context.Background(), newClient(t, twin, ""), db, options("game", "24h", at(start.Add(time.Minute))))
	require.NoError(t, err)
	assert.Equal(t, games-9, s2.Details, "the rest, nothing twice")
	assert.Equal(t, games, query[int](t, read, `SELECT COUNT(*) FROM packages`))
	assert.Len(t, paths(twin.Requests()[n:], "/api/packages/"), games-9)
}

// Progress moves a detail at a time, as each arrives, not a batch at a
// time when the batch is written; the directory's walk, once it reaches
// its end, says its length as its total.
func TestProgressMovesAnItemAtATime(t *testing.T) {
	t.Parallel()
	twin := smallTwin(t)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	var details []int
	var last Progress
	o := options("game", "24h", at(start))
	o.Progress = func(p Progress) {
		if p.Stage == StageDetails {
			details = append(details, p.Done)
		}
		if p.Stage == StageDirectory {
			last = p
		}
	}
	db, _ := sqliteDB(t)
	_, err := Run(context.Background(), newClient(t, twin, ""), db, o)
	require.NoError(t, err)
	want := make([]int, games+1)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, details, "0, then one more a record")
	assert.Equal(t, Progress{Stage: StageDirectory, Done: games, Total: games}, last)
}
