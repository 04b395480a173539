package store

import (
	"context"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An average point whose interval ends before it starts is kept as a
// snapshot at its time, its raw as sent: platform_daily never counts
// negative time, and platform_segments never ends a segment before it
// starts.
func TestActivityIntervalBackwards(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		r, err := db.BeginRun(ctx, "game", day0.Add(6*time.Hour))
		require.NoError(t, err)
		at := func(h int) *time.Time { t := day0.Add(time.Duration(h) * time.Hour); return &t }
		players := func(v float64) *float64 { return &v }
		points := []Point{
			{Time: *at(1), Players: players(10), Raw: []byte(`[1]`)},
			{Time: *at(2), Players: players(20), Average: true, IntervalStart: at(3), IntervalEnd: at(2), Raw: []byte(`[2]`)},
			{Time: *at(4), Players: players(30), Average: true, IntervalStart: at(3), IntervalEnd: at(4), Raw: []byte(`[4]`)},
		}
		require.NoError(t, db.SaveActivity(ctx, r, points, day0.Add(6*time.Hour)))
		assert.NotNil(t, points[1].IntervalStart, "the caller's points are left as they were")

		assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM platform_segments WHERE end_at < start_at`))
		assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM platform_daily WHERE covered_seconds < 0`))
		var average int
		var start, end *int64
		var raw string
		require.NoError(t, db.db.QueryRow(db.q(`SELECT average, interval_start, interval_end, raw FROM activity_points WHERE time = ?`), unix(*at(2))).
			Scan(&average, &start, &end, &raw))
		assert.Equal(t, 0, average, "a snapshot at its time")
		assert.Nil(t, start)
		assert.Nil(t, end)
		assert.Equal(t, `[2]`, raw, "raw as sent")
		var covered int64
		require.NoError(t, db.db.QueryRow(`SELECT covered_seconds FROM platform_daily`).Scan(&covered))
		assert.Equal(t, int64(4*3600), covered, "1h to 2h and 2h to 4h as snapshots (each holds until the next point), 3h to 4h the average")
	})
}
