package collect

import (
	"cmp"
	"context"
	"database/sql"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/grafana"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The database dashboards' queries, run as Grafana runs them (variables
// and macros expanded) against databases filled by real syncs of the
// twin, on SQLite and on PostgreSQL.

// dashboardDir holds the shipped dashboards.
var dashboardDir = filepath.Join("..", "..", "..", "..", "deploy", "grafana", "dashboards")

// synced is a database after syncs of the twin (syncRuns): the top
// game's players change once, from p1 to p2.
type synced struct {
	db        *store.DB
	read      *sql.DB // the test's own connection to db
	twin      *gamedatatest.Server
	game      gamedatatest.Entry // the top game, as the first run saw it
	p1, p2    float64            // its players at the first run and after
	summaries []Summary
	dash      *grafana.Dashboard
	ds        string
	queried   map[string]bool // the titles of the panels whose query ran
}

// runTook is how long every run takes on its clock.
const runTook = 37 * time.Second

// syncThrice is three hourly syncs: the top game's players change
// between the first and the second; the third changes nothing.
func syncThrice(t *testing.T, dsn string) synced { return syncRuns(t, dsn, 3, time.Hour, 1) }

// syncRuns syncs the twin into dsn runs times, every apart from start,
// and changes the top game's players from p1 to p2 before run changeAt.
func syncRuns(t *testing.T, dsn string, runs int, every time.Duration, changeAt int) synced {
	t.Helper()
	ctx := context.Background()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(30, 0, 3))
	t.Cleanup(twin.Close)
	c := newClient(t, twin, "")
	s := synced{twin: twin, queried: map[string]bool{}}
	s.db, s.read = openDB(t, dsn)
	s.game = twin.Catalog().Entries(url.Values{"kind": {"game"}, "sort": {"players"}})[0]
	s.p1 = s.game.Players.Value
	s.p2 = s.p1 + 11
	for i := range runs {
		if i == changeAt {
			require.NoError(t, twin.UpdatePackage("game", s.game.Ident, gamedatatest.PackageUpdate{Players: &s.p2}))
		}
		sum, err := Run(ctx, c, s.db, options("game", "7d", took(start.Add(time.Duration(i)*every), runTook)))
		require.NoError(t, err)
		s.summaries = append(s.summaries, sum)
	}
	file, ds := "gamedata-sync-sqlite.json", grafana.SQLite
	if pgtest.IsPostgres(dsn) {
		file, ds = "gamedata-sync-postgres.json", grafana.PostgreSQL
	}
	var err error
	s.dash, err = grafana.Load(filepath.Join(dashboardDir, file))
	require.NoError(t, err)
	s.ds = ds
	return s
}

// took is a clock at t for a run's first reading and d later for every
// other, so that the run lasts d.
func took(t time.Time, d time.Duration) func() time.Time {
	var calls atomic.Int64
	return func() time.Time {
		if calls.Add(1) == 1 {
			return t
		}
		return t.Add(d)
	}
}

// panelRows runs the query of the dashboard's panel titled title over r,
// its rows with numbers as float64 and NULL as nil.
func (s synced) panelRows(t *testing.T, title string, r grafana.Range) [][]any {
	t.Helper()
	i := slices.IndexFunc(s.dash.Panels, func(p grafana.Panel) bool { return p.Title == title })
	require.GreaterOrEqual(t, i, 0, "no panel %q", title)
	require.Len(t, s.dash.Panels[i].Targets, 1)
	s.queried[title] = true
	return s.rows(t, s.dash.Panels[i].Targets[0].Query(), r)
}

func (s synced) rows(t *testing.T, query string, r grafana.Range) [][]any {
	t.Helper()
	q, err := grafana.Expand(query, s.ds, r, map[string]string{"kind": "game", "ident": s.game.Ident})
	require.NoError(t, err)
	rows, err := s.read.Query(q)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		for i, v := range vals {
			switch v := v.(type) {
			case int64:
				vals[i] = float64(v)
			case []byte:
				vals[i] = string(v)
			}
		}
		out = append(out, vals)
	}
	require.NoError(t, rows.Err())
	return out
}

// TestSyncDashboardQueries runs the query of every panel and variable
// of the database dashboards, each in a subtest, against a database of
// each kind after three syncs of the twin.
func TestSyncDashboardQueries(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		s := syncThrice(t, dsn)
		for _, c := range []struct {
			name  string
			check func(*testing.T, synced)
		}{
			{"game players", checkGamePlayers},
			{"quiet game is a flat line", checkQuietGameIsAFlatLine},
			{"top games", checkTopGames},
			{"sync runs", checkSyncRuns},
			{"variables", checkVariables},
			{"platform daily", checkPlatformDaily},
		} {
			t.Run(c.name, func(t *testing.T) { c.check(t, s) })
		}
		for _, p := range s.dash.Panels {
			assert.True(t, s.queried[p.Title], "panel %q has no test", p.Title)
		}
	})
}

// sec is the dashboards' time column for t: Unix seconds.
func sec(t time.Time) float64 { return float64(t.Unix()) }

// A game's players panel: each value the twin served from the run that
// saw it, and the last one held to the last run.
func checkGamePlayers(t *testing.T, s synced) {
	got := s.panelRows(t, "Players of ${kind}/${ident}", grafana.Range{From: start.Add(-time.Hour), To: start.Add(3 * time.Hour)})
	assert.Equal(t, [][]any{
		{sec(start), s.p1},
		{sec(start.Add(time.Hour)), s.p2},
		{sec(start.Add(2 * time.Hour)), s.p2},
	}, got)
}

// A quiet game's panel over a window after its last change is a flat
// line at its value, from the window's start to the last run, not an
// empty panel.
func checkQuietGameIsAFlatLine(t *testing.T, s synced) {
	from := start.Add(90 * time.Minute)
	got := s.panelRows(t, "Players of ${kind}/${ident}", grafana.Range{From: from, To: start.Add(6 * time.Hour)})
	assert.Equal(t, [][]any{{sec(from), s.p2}, {sec(start.Add(2 * time.Hour)), s.p2}}, got)
}

// The top games panel lists the twin's ten games with the most players,
// with their titles as served.
func checkTopGames(t *testing.T, s synced) {
	var want [][]any
	for _, e := range s.twin.Catalog().Entries(url.Values{"kind": {"game"}}) {
		if e.Players.Valid {
			want = append(want, []any{e.Ident, e.Name, e.Players.Value})
		}
	}
	slices.SortFunc(want, func(a, b []any) int {
		return cmp.Or(cmp.Compare(b[2].(float64), a[2].(float64)), cmp.Compare(a[0].(string), b[0].(string)))
	})
	assert.Equal(t, want[:10], s.panelRows(t, "Top ${kind}s by players", grafana.Range{From: start, To: start.Add(3 * time.Hour)}))
}

// The sync runs panels: each run's duration, the requests the twin
// answered it and its failures.
func checkSyncRuns(t *testing.T, s synced) {
	r := grafana.Range{From: start.Add(-time.Minute), To: start.Add(3 * time.Hour)}
	var duration, requests, failures [][]any
	for i, sum := range s.summaries {
		at := sec(start.Add(time.Duration(i) * time.Hour))
		duration = append(duration, []any{at, runTook.Seconds()})
		requests = append(requests, []any{at, float64(sum.Requests)})
		failures = append(failures, []any{at, float64(sum.Failed)})
	}
	assert.Equal(t, duration, s.panelRows(t, "Sync runs: duration", r))
	assert.Equal(t, requests, s.panelRows(t, "Sync runs: requests", r))
	assert.Equal(t, failures, s.panelRows(t, "Sync runs: failures", r))
	assert.Equal(t, [][]any{requests[1]}, s.panelRows(t, "Sync runs: requests", grafana.Range{From: start.Add(time.Hour), To: start.Add(time.Hour)}),
		"the time range selects the runs")
}

// An abandoned run's finished_at is when the next run found it dead, not
// when it ended: the duration panel leaves it out.
func TestSyncRunsDurationLeavesAbandonedOut(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		dead, _ := openDB(t, dsn)
		_, err := dead.BeginRun(context.Background(), "game", start.Add(-time.Hour))
		require.NoError(t, err)
		require.NoError(t, dead.Close())
		s := syncRuns(t, dsn, 1, time.Hour, 1)
		require.Equal(t, 1, query[int](t, s.read, `SELECT COUNT(*) FROM runs WHERE outcome = 'abandoned'`))
		r := grafana.Range{From: start.Add(-2 * time.Hour), To: start.Add(time.Hour)}
		assert.Equal(t, [][]any{{sec(start), runTook.Seconds()}}, s.panelRows(t, "Sync runs: duration", r))
	})
}

// The dashboard's variables list the kinds, then the idents of a kind
// with the most players first.
func checkVariables(t *testing.T, s synced) {
	r := grafana.Range{From: start, To: start.Add(time.Hour)}
	vars := s.dash.QueryVariables()
	require.Len(t, vars, 2)
	assert.Equal(t, [][]any{{"game"}}, s.rows(t, vars[0].Query(), r))
	idents := s.rows(t, vars[1].Query(), r)
	assert.Len(t, idents, len(s.twin.Catalog().Entries(url.Values{"kind": {"game"}})))
	assert.Equal(t, []any{s.game.Ident}, idents[0])
}

// The platform panel: a day for each day the twin's activity history
// covers, its peak the greatest players the twin served over it, its
// average between its least and greatest, and a day on partial coverage
// in the lower-bound series, never in the complete ones.
func checkPlatformDaily(t *testing.T, s synced) {
	c := newClient(t, s.twin, "")
	h, err := c.Activity.History(context.Background(), &gamedata.ActivityOptions{Range: "7d"})
	require.NoError(t, err)
	days := servedDays(h.Points)
	now := s.twin.Catalog().Now
	got := s.panelRows(t, "Platform players: daily average and peak", grafana.Range{From: now.Add(-8 * 24 * time.Hour), To: start.Add(3 * time.Hour)})
	require.Len(t, got, len(days))
	partials := 0
	for i, row := range got {
		d := days[i]
		require.Equal(t, sec(d.day), row[0], "day %d", i)
		avg, peak := row[1], row[2]
		if d.partial {
			partials++
			assert.Equal(t, []any{nil, nil}, row[1:3], "%s: partial, so no complete figure", d.day)
			avg, peak = row[3], row[4]
		} else {
			assert.Equal(t, []any{nil, nil}, row[3:5], "%s: complete, so no lower bound", d.day)
		}
		assert.Equal(t, d.max, peak, "%s: peak", d.day)
		require.IsType(t, 0.0, avg)
		assert.True(t, avg.(float64) >= d.min-1e-9 && avg.(float64) <= d.max+1e-9, "%s: average %v outside [%v, %v]", d.day, avg, d.min, d.max)
	}
	assert.Positive(t, partials, "the twin's history has days on partial coverage")
}

// After a prune with both cuts (raw rows and hourly rollups), the
// database dashboards still answer: a game's panel over days whose raw
// rows are gone falls back to the daily rollups, over days after the
// cut it is what it was, and the platform's panel is unchanged.
func TestSyncDashboardAfterPrune(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		// Runs every 6 hours for 3 days from start (noon): the game's
		// players change at the fifth, a day after the first.
		s := syncRuns(t, dsn, 13, 6*time.Hour, 4)

		day := start.Truncate(24 * time.Hour) // the first run's UTC day
		old := grafana.Range{From: day, To: start.Add(30 * time.Hour)}
		recent := grafana.Range{From: start.Add(49 * time.Hour), To: start.Add(72 * time.Hour)}
		platform := grafana.Range{From: s.twin.Catalog().Now.Add(-8 * 24 * time.Hour), To: start.Add(72 * time.Hour)}
		const game, daily = "Players of ${kind}/${ident}", "Platform players: daily average and peak"
		assert.Equal(t, [][]any{
			{sec(start), s.p1},
			{sec(start.Add(24 * time.Hour)), s.p2},
			{sec(old.To), s.p2},
		}, s.panelRows(t, game, old), "before the prune: the raw rows")
		recentRows, platformRows := s.panelRows(t, game, recent), s.panelRows(t, daily, platform)

		n, err := s.db.Prune(context.Background(), start.Add(48*time.Hour), day.Add(48*time.Hour))
		require.NoError(t, err)
		require.Positive(t, n.Values)
		require.Positive(t, n.Hourly)

		assert.Equal(t, [][]any{
			{sec(day), s.p1}, // the first day's average: p1 from its first run on
			{sec(start.Add(24 * time.Hour)), s.p2},
			{sec(old.To), s.p2},
		}, s.panelRows(t, game, old), "the first day from its daily rollup; the second from the row that holds across the cut")
		assert.Equal(t, recentRows, s.panelRows(t, game, recent), "after the cut: as before")
		assert.Equal(t, platformRows, s.panelRows(t, daily, platform), "the platform's rollups are all kept")
	})
}

// servedDay is what the twin served over one UTC day.
type servedDay struct {
	day      time.Time
	min, max float64
	partial  bool
}

// servedDays are the UTC days the points cover with a known value: a
// point covers its interval, or, a snapshot, the time to the next point.
func servedDays(points []gamedata.ActivityPoint) []servedDay {
	byDay := map[time.Time]*servedDay{}
	for i, p := range points {
		v, ok := p.Players.Get()
		if !ok {
			continue
		}
		from, ok := p.IntervalStart.Get()
		if !ok {
			from = p.Time
		}
		to, ok := p.IntervalEnd.Get()
		if !ok {
			to = p.Time
			if i+1 < len(points) {
				to = points[i+1].Time
			}
		}
		for d := from.Truncate(24 * time.Hour); d.Before(to) || d.Equal(from.Truncate(24*time.Hour)); d = d.Add(24 * time.Hour) {
			if !from.Equal(to) && !to.After(d) {
				break
			}
			sd := byDay[d]
			if sd == nil {
				sd = &servedDay{day: d, min: math.Inf(1), max: math.Inf(-1)}
				byDay[d] = sd
			}
			sd.min, sd.max = min(sd.min, v), max(sd.max, v)
			sd.partial = sd.partial || p.PartialCoverage
		}
	}
	var out []servedDay
	for _, d := range byDay {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b servedDay) int { return a.day.Compare(b.day) })
	return out
}
