package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// daily reads a rollup view as "day+N min max avg covered partial".
func daily(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.db.Query(db.q(query), args...)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var day, covered int64
		var lo, hi, avg float64
		var partial int
		require.NoError(t, rows.Scan(&day, &lo, &hi, &avg, &covered, &partial))
		out = append(out, fmt.Sprintf("day+%d min %g max %g avg %g covered %ds partial %d", (day-day0.Unix())/86400, lo, hi, avg, covered, partial))
	}
	require.NoError(t, rows.Err())
	return out
}

// The daily rollups equal values computed by hand: minimum, maximum and
// the time-weighted average of each day, how much of the day the values
// cover, and a day built on partial data marked as a lower bound.
func TestRollups(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		// a: 10 from 00:00, 20 from 06:00, 30 from 02:00 the next day,
		// last seen at 04:00. b: 5 until it leaves at 02:00 the next day,
		// listed again at 04:00. c: partial coverage all along.
		run(t, db, day0,
			entry("a", false, map[string]any{"players": 10.0, "playersPeak": nil}),
			entry("b", false, map[string]any{"players": 5.0}),
			entry("c", true, map[string]any{"players": 7.0}))
		run(t, db, day0.Add(6*time.Hour),
			entry("a", false, map[string]any{"players": 20.0, "playersPeak": nil}),
			entry("b", false, map[string]any{"players": 5.0}),
			entry("c", true, map[string]any{"players": 7.0}))
		run(t, db, day0.Add(26*time.Hour),
			entry("a", false, map[string]any{"players": 30.0, "playersPeak": nil}),
			entry("c", true, map[string]any{"players": 9.0}))
		run(t, db, day0.Add(28*time.Hour),
			entry("a", false, map[string]any{"players": 30.0, "playersPeak": nil}),
			entry("b", false, map[string]any{"players": 5.0}),
			entry("c", true, map[string]any{"players": 9.0}))

		q := `SELECT day, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM directory_daily WHERE kind = 'game' AND ident = ? AND member = ? ORDER BY day`
		assert.Equal(t, []string{
			"day+0 min 10 max 20 avg 17.5 covered 86400s partial 0", // 10 for 6 h, 20 for 18 h
			"day+1 min 20 max 30 avg 25 covered 14400s partial 0",   // 20 for 2 h, 30 for 2 h
		}, daily(t, db, q, "a", "players"))
		assert.Empty(t, daily(t, db, q, "a", "playersPeak"), "unavailable all along: no day, never 0")
		assert.Equal(t, []string{
			"day+0 min 5 max 5 avg 5 covered 86400s partial 0",
			"day+1 min 5 max 5 avg 5 covered 7200s partial 0", // 2 h, then gone, then seen again at 04:00
		}, daily(t, db, q, "b", "players"))
		assert.Equal(t, []string{
			"day+0 min 7 max 7 avg 7 covered 86400s partial 1",
			"day+1 min 7 max 9 avg 8 covered 14400s partial 1",
		}, daily(t, db, q, "c", "players"), "partial data: a lower bound")

		ctx := context.Background()
		r, err := db.BeginRun(ctx, "game", day0.Add(40*time.Hour))
		require.NoError(t, err)
		at := func(h int) *time.Time { t := day0.Add(time.Duration(h) * time.Hour); return &t }
		f := func(v float64) *float64 { return &v }
		require.NoError(t, db.SaveActivity(ctx, r, []Point{
			{Time: *at(0), Players: f(100), Average: true, IntervalStart: at(0), IntervalEnd: at(12), Raw: []byte(`[1]`)},
			{Time: *at(12), Players: f(200), Average: true, Partial: true, IntervalStart: at(12), IntervalEnd: at(24), Raw: []byte(`[2]`)},
			{Time: *at(24), Players: f(50), Raw: []byte(`[3]`)},
			{Time: *at(30), Players: nil, Raw: []byte(`[4]`)},
			{Time: *at(36), Players: f(80), Current: true, Raw: []byte(`[5]`)},
		}, day0.Add(40*time.Hour)))
		assert.Equal(t, []string{
			"day+0 min 100 max 200 avg 150 covered 86400s partial 1",
			"day+1 min 50 max 80 avg 50 covered 21600s partial 0", // 50 for 6 h; null for 6 h; 80 at the last point
		}, daily(t, db, `SELECT day, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM platform_daily ORDER BY day`))
		var nulls int
		require.NoError(t, db.db.QueryRow(`SELECT COUNT(*) FROM activity_points WHERE players IS NULL`).Scan(&nulls))
		assert.Equal(t, 1, nulls)
		var v sql.NullFloat64
		require.NoError(t, db.db.QueryRow(db.q(`SELECT players FROM activity_points WHERE time = ?`), at(30).Unix()).Scan(&v))
		assert.False(t, v.Valid, "null is NULL, never 0")
	})
}

// A value holds across days no run saw: runs three days apart give a
// row for every day between.
func TestRollupAcrossDaysNoRunSaw(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		run(t, db, day0.Add(12*time.Hour), entry("a", false, map[string]any{"players": 4.0}))
		run(t, db, day0.Add(84*time.Hour), entry("a", false, map[string]any{"players": 4.0}))
		assert.Equal(t, []string{
			"day+0 min 4 max 4 avg 4 covered 43200s partial 0",
			"day+1 min 4 max 4 avg 4 covered 86400s partial 0",
			"day+2 min 4 max 4 avg 4 covered 86400s partial 0",
			"day+3 min 4 max 4 avg 4 covered 43200s partial 0",
		}, daily(t, db, `SELECT day, min_value, max_value, avg_value, covered_seconds, partial_coverage FROM directory_daily WHERE ident = ? ORDER BY day`, "a"))
	})
}
