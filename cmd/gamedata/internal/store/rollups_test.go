package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table reads a query's rows as text, NULL as "null".
func table(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	_, rows := rowsOf(t, db, db.q(query), args...)
	var out []string
	for _, vals := range rows {
		s := ""
		for i, v := range vals {
			if i > 0 {
				s += " "
			}
			switch v := v.(type) {
			case nil:
				s += "null"
			case []byte:
				s += string(v)
			case float64:
				s += fmt.Sprintf("%.6g", v)
			default:
				s += fmt.Sprint(v)
			}
		}
		out = append(out, s)
	}
	return out
}

// rowsOf reads a query's columns and its rows' values as the driver
// gives them.
func rowsOf(t *testing.T, db *DB, query string, args ...any) (cols []string, out [][]any) {
	t.Helper()
	rows, err := db.db.Query(query, args...)
	require.NoError(t, err)
	defer rows.Close()
	cols, err = rows.Columns()
	require.NoError(t, err)
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		out = append(out, vals)
	}
	require.NoError(t, rows.Err())
	return cols, out
}

// points saves activity points in a run of its own at the time at.
func points(t *testing.T, db *DB, at time.Time, pts ...Point) {
	t.Helper()
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", at)
	require.NoError(t, err)
	require.NoError(t, db.SaveActivity(ctx, r, pts, at))
	require.NoError(t, db.FinishRun(ctx, r, OutcomeOK, at))
}

func point(at time.Time, players float64, partial bool) Point {
	return Point{Time: at, Players: &players, Partial: partial, Raw: []byte(`[]`)}
}

// fourRuns are the runs of TestRollups and a fifth, two days on, which
// rolls up both days.
func fourRuns(t *testing.T, db *DB) {
	t.Helper()
	run(t, db, day0,
		entry("a", false, map[string]any{"players": 10.0}),
		entry("b", false, map[string]any{"players": 5.0}),
		entry("c", true, map[string]any{"players": 7.0}))
	run(t, db, day0.Add(6*time.Hour),
		entry("a", false, map[string]any{"players": 20.0}),
		entry("b", false, map[string]any{"players": 5.0}),
		entry("c", true, map[string]any{"players": 7.0}))
	run(t, db, day0.Add(26*time.Hour),
		entry("a", false, map[string]any{"players": 30.0}),
		entry("c", true, map[string]any{"players": 9.0}))
	run(t, db, day0.Add(28*time.Hour),
		entry("a", false, map[string]any{"players": 30.0}),
		entry("b", false, map[string]any{"players": 5.0}),
		entry("c", true, map[string]any{"players": 9.0}))
	run(t, db, day0.Add(50*time.Hour),
		entry("a", false, map[string]any{"players": 30.0}),
		entry("b", false, map[string]any{"players": 5.0}),
		entry("c", true, map[string]any{"players": 9.0}))
}

// The rollup tables hold what the daily views compute, filled as runs
// finish: a day of an entry's member for each day with a change of it,
// and every day of the platform.
func TestRollupTablesMatchViews(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		fourRuns(t, db)
		points(t, db, day0.Add(51*time.Hour),
			point(day0, 100, false), point(day0.Add(12*time.Hour), 200, true),
			point(day0.Add(24*time.Hour), 50, false), point(day0.Add(36*time.Hour), 80, false))

		rolled := table(t, db, `SELECT ident, start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage
			FROM directory_rollups WHERE period = 86400 AND member = 'players' ORDER BY ident, start_at`)
		view := table(t, db, `SELECT ident, day, min_value, max_value, avg_value, covered_seconds, partial_coverage
			FROM directory_daily d WHERE member = 'players' AND day < ?
				AND EXISTS (SELECT 1 FROM directory_values v WHERE v.ident = d.ident AND v.member = d.member AND v.at >= d.day AND v.at < d.day + 86400)
			ORDER BY ident, day`, day0.Add(48*time.Hour).Unix())
		assert.Equal(t, view, rolled)
		assert.Len(t, rolled, 6, "each of a, b and c changed on days 0 and 1 (b left and came back)")

		assert.Equal(t,
			table(t, db, `SELECT day, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM platform_daily ORDER BY day`),
			table(t, db, `SELECT start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM platform_rollups WHERE period = 86400 ORDER BY start_at`))
		assert.Equal(t, []string{
			fmt.Sprint(day0.Add(12*time.Hour).Unix(), " 200 200 200 3600 1"),
		}, table(t, db, `SELECT start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM platform_rollups WHERE period = 3600 AND start_at = ?`, day0.Add(12*time.Hour).Unix()),
			"an hour on partial coverage: a lower bound")
		assert.Equal(t, []string{"10 10 10 3600 0 10"},
			table(t, db, `SELECT min_value, max_value, avg_value, covered_seconds, partial_coverage, last_value FROM directory_rollups WHERE ident = 'a' AND period = 3600 AND start_at = ?`, day0.Unix()),
			"a's first hour")
		assert.Empty(t, table(t, db, `SELECT 1 FROM directory_rollups WHERE ident = 'a' AND period = 3600 AND start_at = ?`, day0.Add(time.Hour).Unix()),
			"an hour without a change has no row: the value held is the last row's last_value")
	})
}

// A late value recomputes its hour and its day: an activity point for a
// time already rolled up, and the values of a run that started before
// the last rollup.
func TestLateValueRecomputes(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		run(t, db, day0.Add(time.Hour), entry("a", false, map[string]any{"players": 10.0}))
		points(t, db, day0.Add(25*time.Hour), point(day0, 100, false), point(day0.Add(4*time.Hour), 100, false))
		run(t, db, day0.Add(25*time.Hour), entry("a", false, map[string]any{"players": 10.0}))
		hourQ := `SELECT min_value, max_value, covered_seconds FROM platform_rollups WHERE period = ? AND start_at = ?`
		require.Equal(t, []string{"100 100 3600"}, table(t, db, hourQ, 3600, day0.Add(2*time.Hour).Unix()))
		require.Equal(t, []string{"100 100 14400"}, table(t, db, hourQ, 86400, day0.Unix()))

		// A point at 02:30 arrives late.
		points(t, db, day0.Add(26*time.Hour), point(day0.Add(150*time.Minute), 400, false))
		assert.Equal(t, []string{"100 400 3600"}, table(t, db, hourQ, 3600, day0.Add(2*time.Hour).Unix()), "its hour")
		assert.Equal(t, []string{"100 400 14400"}, table(t, db, hourQ, 86400, day0.Unix()), "its day")

		// A run that started at 02:00, before the runs that rolled day 0
		// up, finishes now with a new value for a.
		ctx := context.Background()
		r, err := db.BeginRun(ctx, "game", day0.Add(2*time.Hour))
		require.NoError(t, err)
		_, err = db.SaveEntries(ctx, r, []Entry{entry("a", false, map[string]any{"players": 70.0})})
		require.NoError(t, err)
		require.NoError(t, db.FinishRun(ctx, r, OutcomeOK, day0.Add(26*time.Hour)))
		q := `SELECT min_value, max_value FROM directory_rollups WHERE ident = 'a' AND member = 'players' AND period = ? AND start_at = ?`
		assert.Equal(t, []string{"70 70"}, table(t, db, q, 3600, day0.Add(2*time.Hour).Unix()), "its hour")
		assert.Equal(t, []string{"10 70"}, table(t, db, q, 86400, day0.Unix()), "its day")
	})
}

// The rollup's read of the rows around a span searches each member's rows
// by the primary key, bounded on at, in a database as a run finds it:
// with statistics taken before the hour it has just written. PostgreSQL
// walked the index on at instead, through every row of that hour for
// each member (BENCHMARKS.md, issue 30).
func TestSegmentsQueryReadsByKey(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		fillScale(t, db, dsn, 1000, 3)
		_, err := db.db.ExecContext(ctx, `ANALYZE`)
		require.NoError(t, err)
		hour := scaleStart.Add(3 * time.Hour)
		r, err := db.BeginRun(ctx, "game", hour)
		require.NoError(t, err)
		var batch []Entry
		for i := range 1000 {
			batch = append(batch, entry("g"+strconv.Itoa(i), false, map[string]any{"players": float64(i)}))
		}
		_, err = db.SaveEntries(ctx, r, batch)
		require.NoError(t, err)

		var keys []seriesKey
		for i := range 128 {
			keys = append(keys, seriesKey{Key{"game", "g" + strconv.Itoa(i*7), ""}, "players"})
		}
		query, args := db.segmentsStatement(keys, hour.Add(-time.Hour).Unix(), hour.Unix())
		explain := "EXPLAIN QUERY PLAN "
		if db.d.name() == "postgres" {
			explain = "EXPLAIN "
		}
		plan := strings.Join(table(t, db, explain+query, args...), "\n")
		assert.NotContains(t, plan, "directory_values_at")
		if db.d.name() == "sqlite" {
			assert.Contains(t, plan, "SEARCH p USING PRIMARY KEY (kind=? AND ident=? AND id=? AND member=? AND at<?)")
			assert.Contains(t, plan, "SEARCH a USING PRIMARY KEY (kind=? AND ident=? AND id=? AND member=? AND at>?)")
		}
	})
}
