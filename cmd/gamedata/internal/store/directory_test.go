package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// day0 is 2026-11-20T00:00:00Z, the fixture's first day.
var day0 = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// entry is a game entry whose members are vals: numbers, or nil for null.
func entry(ident string, partial bool, vals map[string]any) Entry {
	e := Entry{Key: Key{Kind: "game", Ident: ident}, Values: map[string]*float64{}, Partial: partial, ChangeKey: "k"}
	m := map[string]any{"kind": "game", "ident": ident}
	for name, v := range vals {
		m[name] = v
		if f, ok := v.(float64); ok {
			e.Values[name] = &f
		} else {
			e.Values[name] = nil
		}
	}
	e.Raw, _ = json.Marshal(m)
	return e
}

// run saves one run at t that lists entries and ends its walk.
func run(t *testing.T, db *DB, at time.Time, entries ...Entry) (*Run, EntryCounts, int) {
	t.Helper()
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", at)
	require.NoError(t, err)
	c, err := db.SaveEntries(ctx, r, entries)
	require.NoError(t, err)
	gone, err := db.EndWalk(ctx, r)
	require.NoError(t, err)
	require.NoError(t, db.FinishRun(ctx, r, OutcomeOK, at))
	return r, c, gone
}

// valuesAt is directory_at_run for one run: "ident.member" to the value
// as text, "null" for NULL.
func valuesAt(t *testing.T, db *DB, run int64) map[string]string {
	t.Helper()
	rows, err := db.db.Query(db.q(`SELECT ident, member, value, partial_coverage FROM directory_at_run WHERE run_id = ?`), run)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var ident, member string
		var v sql.NullFloat64
		var partial int
		require.NoError(t, rows.Scan(&ident, &member, &v, &partial))
		s := "null"
		if v.Valid {
			s = fmt.Sprint(v.Float64)
		}
		if partial == 1 {
			s += " (lower bound)"
		}
		out[ident+"."+member] = s
	}
	require.NoError(t, rows.Err())
	return out
}

func count(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	require.NoError(t, db.db.QueryRow(db.q(query), args...).Scan(&n))
	return n
}

// The directory as a series: a row only when a value changed, NULL for
// null, an entry that left recorded as gone, and the value of every entry
// at every run read back from directory_at_run.
func TestSeries(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		r1, c, gone := run(t, db, day0,
			entry("a", false, map[string]any{"players": 10.0, "playersPeak": nil, "rating": 4.0}),
			entry("b", false, map[string]any{"players": 5.0}),
			entry("p", false, map[string]any{"playersPeak": 1.0})) // playersPeak holds numbers: a's null is recorded
		assert.Equal(t, EntryCounts{New: 3, Rows: 5}, c)
		assert.Zero(t, gone)
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE ident = 'a' AND member = 'playersPeak' AND value IS NULL`), "null is NULL, never 0")

		r2, c, _ := run(t, db, day0.Add(6*time.Hour),
			entry("a", false, map[string]any{"players": 20.0, "playersPeak": nil, "rating": 4.0}),
			entry("b", false, map[string]any{"players": 5.0}))
		assert.Equal(t, EntryCounts{Changed: 1, Rows: 1}, c, "only a's players changed")

		r3, c, gone := run(t, db, day0.Add(26*time.Hour),
			entry("a", false, map[string]any{"players": 30.0, "rating": 4.0}))
		assert.Equal(t, EntryCounts{Changed: 1, Rows: 1}, c, "a's peak, null before, absent now: still unavailable, no row")
		assert.Equal(t, 1, gone, "b left")

		r4, c, _ := run(t, db, day0.Add(28*time.Hour),
			entry("a", false, map[string]any{"players": 30.0, "rating": 4.0}),
			entry("b", false, map[string]any{"players": 5.0}))
		assert.Equal(t, EntryCounts{New: 1, Rows: 1}, c, "b is listed again")

		assert.Equal(t, map[string]string{"a.players": "10", "a.playersPeak": "null", "a.rating": "4", "b.players": "5", "p.playersPeak": "1"}, valuesAt(t, db, r1.ID))
		assert.Equal(t, map[string]string{"a.players": "20", "a.playersPeak": "null", "a.rating": "4", "b.players": "5"}, valuesAt(t, db, r2.ID))
		assert.Equal(t, map[string]string{"a.players": "30", "a.playersPeak": "null", "a.rating": "4"}, valuesAt(t, db, r3.ID), "b was gone")
		assert.Equal(t, map[string]string{"a.players": "30", "a.playersPeak": "null", "a.rating": "4", "b.players": "5"}, valuesAt(t, db, r4.ID))

		assert.Equal(t, 10, count(t, db, `SELECT COUNT(*) FROM directory_values`), "5 + 1 + p's gone row + 1 + b's gone row + b's return")
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE ident = 'b' AND listed = 0 AND value IS NULL`))
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM directory WHERE gone_at IS NOT NULL`), "p left after the first run")

		// A fifth run over the same directory adds no series row.
		before := count(t, db, `SELECT COUNT(*) FROM directory_values`)
		_, c, gone = run(t, db, day0.Add(29*time.Hour),
			entry("a", false, map[string]any{"players": 30.0, "rating": 4.0}),
			entry("b", false, map[string]any{"players": 5.0}))
		assert.Equal(t, EntryCounts{}, c)
		assert.Zero(t, gone)
		assert.Equal(t, before, count(t, db, `SELECT COUNT(*) FROM directory_values`))
	})
}

// A change of the partial-coverage flag rewrites every member with it.
func TestSeriesPartialCoverage(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		run(t, db, day0, entry("c", true, map[string]any{"players": 7.0, "rating": 3.0}))
		r2, c, _ := run(t, db, day0.Add(time.Hour), entry("c", false, map[string]any{"players": 7.0, "rating": 3.0}))
		assert.Equal(t, EntryCounts{Changed: 1, Rows: 2}, c)
		assert.Equal(t, map[string]string{"c.players": "7", "c.rating": "3"}, valuesAt(t, db, r2.ID))
		assert.Equal(t, 2, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE partial_coverage = 1`))
	})
}

// A cut walk records no one as gone; runs recorded in the runs table.
func TestRunsTable(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		run(t, db, day0, entry("a", false, map[string]any{"players": 1.0}), entry("b", false, map[string]any{"players": 2.0}))
		r, err := db.BeginRun(ctx, "game", day0.Add(time.Hour))
		require.NoError(t, err)
		r.Requests = 3
		_, err = db.SaveEntries(ctx, r, []Entry{entry("a", false, map[string]any{"players": 9.0})})
		require.NoError(t, err)
		require.NoError(t, db.RecordFailure(ctx, r, "directory", "page 2", "gamedata: GET …: 503", day0.Add(time.Hour)))
		require.NoError(t, db.FinishRun(ctx, r, OutcomeFailed, day0.Add(time.Hour+time.Minute)))
		assert.Equal(t, 0, count(t, db, `SELECT COUNT(*) FROM directory WHERE gone_at IS NOT NULL`), "b is not gone: the walk did not reach it")

		var (
			kind, outcome                                       string
			started, finished                                   int64
			entries, complete, requests, added, changed, failed int64
		)
		require.NoError(t, db.db.QueryRow(db.q(`SELECT kind, started_at, finished_at, outcome, entries, directory_complete, requests, rows_added, rows_changed, failures FROM runs WHERE run_id = ?`), r.ID).
			Scan(&kind, &started, &finished, &outcome, &entries, &complete, &requests, &added, &changed, &failed))
		assert.Equal(t, []any{"game", day0.Add(time.Hour).Unix(), day0.Add(time.Hour + time.Minute).Unix(), "failed"}, []any{kind, started, finished, outcome})
		assert.Equal(t, []int64{1, 0, 3, 1, 1, 1}, []int64{entries, complete, requests, added, changed, failed})
		var stage, item, msg string
		require.NoError(t, db.db.QueryRow(db.q(`SELECT stage, item, error FROM failures WHERE run_id = ?`), r.ID).Scan(&stage, &item, &msg))
		assert.Equal(t, []string{"directory", "page 2", "gamedata: GET …: 503"}, []string{stage, item, msg})
	})
}
