package store

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fiveDays are fourRuns, the activity of three days, and a run on day 4.
func fiveDays(t *testing.T, db *DB) {
	t.Helper()
	fourRuns(t, db)
	var pts []Point
	for h := 0; h < 72; h += 3 {
		pts = append(pts, point(day0.Add(time.Duration(h)*time.Hour), float64(100+h), h%24 == 12))
	}
	points(t, db, day0.Add(73*time.Hour), pts...)
	run(t, db, day0.Add(98*time.Hour),
		entry("a", false, map[string]any{"players": 40.0}),
		entry("b", false, map[string]any{"players": 5.0}),
		entry("c", true, map[string]any{"players": 9.0}))
}

// heldQuery is the held-values query of the dashboards, over [from, to]
// for one entry's players.
const heldQuery = `SELECT CASE WHEN start_at < ? THEN ? ELSE start_at END AS "time", value FROM directory_segments
	WHERE kind = 'game' AND ident = ? AND id = '' AND member = 'players' AND end_at >= ? AND start_at <= ?
	ORDER BY "time"`

// rolled is what a prune must leave as it was: every rollup, and the
// values held over windows from the cut on.
func rolled(t *testing.T, db *DB, cut time.Time) map[string][]string {
	out := map[string][]string{
		"directory_rollups": table(t, db, `SELECT * FROM directory_rollups ORDER BY kind, ident, id, member, period, start_at`),
		"platform_rollups":  table(t, db, `SELECT * FROM platform_rollups ORDER BY period, start_at`),
	}
	for _, ident := range []string{"a", "b", "c"} {
		for _, w := range [][2]time.Time{{cut, cut.Add(time.Hour)}, {cut.Add(-time.Hour), day0.Add(99 * time.Hour)}} {
			from, to := w[0].Unix(), w[1].Unix()
			out[fmt.Sprint("held ", ident, w)] = table(t, db, heldQuery, from, from, ident, from, to)
		}
	}
	return out
}

// A prune keeps every rollup and the values that hold across the cut,
// deletes the rest of the raw rows before it, and a run after it rolls
// up its own periods without touching those before the cut.
func TestPruneKeepsRollupsAndHeldValues(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		fiveDays(t, db)
		cut := day0.Add(50 * time.Hour)
		before := rolled(t, db, cut)
		n, err := db.Prune(ctx, cut, time.Time{})
		require.NoError(t, err)
		assert.Equal(t, cut, n.Cut)
		assert.Positive(t, n.Values)
		assert.Positive(t, n.Points)
		assert.Equal(t, before, rolled(t, db, cut))
		assert.Empty(t, table(t, db, `SELECT kind, ident, id, member FROM directory_values WHERE at < ? GROUP BY kind, ident, id, member HAVING COUNT(*) > 1`, cut.Unix()),
			"one row a member before the cut: the value that holds at it")
		assert.Equal(t, []string{"1"}, table(t, db, `SELECT COUNT(*) FROM activity_points WHERE time < ?`, cut.Unix()))

		old := table(t, db, `SELECT * FROM directory_rollups WHERE start_at < ? ORDER BY kind, ident, id, member, period, start_at`, cut.Unix())
		run(t, db, day0.Add(123*time.Hour), entry("a", false, map[string]any{"players": 1.0}))
		assert.Equal(t, old, table(t, db, `SELECT * FROM directory_rollups WHERE start_at < ? ORDER BY kind, ident, id, member, period, start_at`, cut.Unix()))

		n, err = db.Prune(ctx, day0.Add(1000*time.Hour), time.Time{})
		require.NoError(t, err)
		assert.Equal(t, day0.Add(120*time.Hour), n.Cut, "no later than the last day rolled up")
	})
}

// A prune with an hourly cut deletes the hourly rollups of entries of
// the UTC days before it, never after the raw cut's day, and keeps
// every daily rollup, every platform rollup and the values that hold.
func TestPruneHourly(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		for _, tc := range []struct {
			name          string
			cut, hourly   time.Time
			wantHourlyCut time.Time
		}{
			{"on a day's start", day0.Add(72 * time.Hour), day0.Add(48 * time.Hour), day0.Add(48 * time.Hour)},
			{"inside a day: back to its start", day0.Add(72 * time.Hour), day0.Add(60 * time.Hour), day0.Add(48 * time.Hour)},
			{"after the raw cut: the raw cut's day", day0.Add(50 * time.Hour), day0.Add(90 * time.Hour), day0.Add(48 * time.Hour)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				db := open(t, pgtest.NewLike(t, dsn))
				fiveDays(t, db)
				daily := `SELECT * FROM directory_rollups WHERE period = 86400 ORDER BY kind, ident, id, member, start_at`
				kept := `SELECT * FROM directory_rollups WHERE period = 3600 AND start_at >= ? ORDER BY kind, ident, id, member, start_at`
				platform := `SELECT * FROM platform_rollups ORDER BY period, start_at`
				before := []any{table(t, db, daily), table(t, db, kept, tc.wantHourlyCut.Unix()), table(t, db, platform), rolled(t, db, tc.cut)}
				hourlyBefore := count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600 AND start_at < ?`, tc.wantHourlyCut.Unix())
				require.Positive(t, hourlyBefore)

				n, err := db.Prune(ctx, tc.cut, tc.hourly)
				require.NoError(t, err)
				assert.Equal(t, tc.wantHourlyCut, n.HourlyCut)
				assert.Equal(t, int64(hourlyBefore), n.Hourly)
				assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600 AND start_at < ?`, tc.wantHourlyCut.Unix()))
				r := rolled(t, db, tc.cut)
				delete(r, "directory_rollups")
				delete(before[3].(map[string][]string), "directory_rollups")
				assert.Equal(t, before, []any{table(t, db, daily), table(t, db, kept, tc.wantHourlyCut.Unix()), table(t, db, platform), r},
					"daily and platform rollups, later hourly ones and held values unchanged")

				// A later run rolls its own hours and brings none back.
				run(t, db, day0.Add(123*time.Hour), entry("a", false, map[string]any{"players": 1.0}))
				assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600 AND start_at < ?`, tc.wantHourlyCut.Unix()))
			})
		}
	})
}

// A prune without an hourly cut keeps every hourly rollup.
func TestPruneKeepsHourlyByDefault(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		fiveDays(t, db)
		hourly := count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600`)
		n, err := db.Prune(context.Background(), day0.Add(72*time.Hour), time.Time{})
		require.NoError(t, err)
		assert.Zero(t, n.Hourly)
		assert.True(t, n.HourlyCut.IsZero())
		assert.Equal(t, hourly, count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600`))
	})
}

// pruneHelperEnv, when set, makes the test binary a prune of its own (a
// pruneSpec in JSON), which the kill -9 test starts and kills.
const pruneHelperEnv = "GAMEDATA_STORE_PRUNE_HELPER"

type pruneSpec struct {
	DSN         string
	Cut, Hourly time.Time
	// Hold is where the prune stops and waits to be killed: "inside" its
	// transaction, after its deletes, or "after" it committed.
	Hold string
}

func pruneHelper(spec string) int {
	var s pruneSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	db, err := Open(context.Background(), s.DSN)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	deleted := func() {}
	if s.Hold == "inside" {
		deleted = func() {
			fmt.Println("inside")
			select {} // until killed
		}
	}
	if _, err := db.prune(context.Background(), s.Cut, s.Hourly, deleted); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("after")
	select {} // until killed
}

// everything is the database's rows that a prune may change.
func everything(t *testing.T, db *DB) map[string][]string {
	out := map[string][]string{}
	for _, tbl := range []string{"directory_values", "activity_points", "directory_rollups", "platform_rollups", "rollup_state"} {
		out[tbl] = table(t, db, `SELECT * FROM `+tbl)
		slices.Sort(out[tbl])
	}
	return out
}

// A prune killed with SIGKILL inside its transaction, after it deleted
// raw rows and hourly rollups, leaves the database as it was before;
// killed after it committed, as an uninterrupted prune leaves it. The prune is a process of its own (this test binary in its
// helper mode), killed when it says where it is.
func TestPruneKilled(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		cut, hourly := day0.Add(50*time.Hour), day0.Add(48*time.Hour)
		ref := open(t, pgtest.NewLike(t, dsn))
		fiveDays(t, ref)
		asBefore := everything(t, ref)
		_, err := ref.Prune(context.Background(), cut, hourly)
		require.NoError(t, err)
		asAfter := everything(t, ref)
		require.NotEqual(t, asBefore, asAfter)
		require.NotEqual(t, asBefore["directory_rollups"], asAfter["directory_rollups"], "hourly rollups deleted")

		for _, tc := range []struct {
			hold string
			want map[string][]string
		}{{"inside", asBefore}, {"after", asAfter}} {
			t.Run(tc.hold, func(t *testing.T) {
				target := pgtest.NewLike(t, dsn)
				db := open(t, target)
				fiveDays(t, db)
				spec, _ := json.Marshal(pruneSpec{DSN: target, Cut: cut, Hourly: hourly, Hold: tc.hold})
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), pruneHelperEnv+"="+string(spec))
				stdout, err := cmd.StdoutPipe()
				require.NoError(t, err)
				var stderr strings.Builder
				cmd.Stderr = &stderr
				require.NoError(t, cmd.Start())
				line, err := bufio.NewReader(stdout).ReadString('\n')
				require.NoError(t, err, "the prune said nothing: %s", stderr.String())
				require.Equal(t, tc.hold+"\n", line)
				require.NoError(t, cmd.Process.Kill())
				_ = cmd.Wait()
				assert.Equal(t, tc.want, everything(t, db))
			})
		}
	})
}

// aroundCut are runs and activity on both sides of cutInDay2: a's
// players change at 0h, 49h, 51h and 55h, the platform has a snapshot
// every 3 hours of days 0 to 2, and a run at 97h rolls every day up to
// day 4. A prune at the cut deletes the 49h row and the 48h point, which
// day 2's rollups were made from.
func aroundCut(t *testing.T, db *DB) []Point {
	t.Helper()
	for _, h := range []int{0, 49, 51, 55} {
		run(t, db, day0.Add(time.Duration(h)*time.Hour), entry("a", false, map[string]any{"players": float64(10 + h)}))
	}
	var pts []Point
	for h := 0; h < 72; h += 3 {
		pts = append(pts, point(day0.Add(time.Duration(h)*time.Hour), float64(100+h), false))
	}
	points(t, db, day0.Add(73*time.Hour), pts...)
	run(t, db, day0.Add(97*time.Hour), entry("a", false, map[string]any{"players": 50.0}))
	return pts
}

// cutInDay2 is aroundCut's cut: inside an hour and a day.
var cutInDay2 = day0.Add(53*time.Hour + 30*time.Minute)

// A rollup of a period that starts before a prune's cut is final: what
// comes after the prune for a time before the cut (the service's history
// read again, a run that began before the prune) recomputes none of
// them from the raw rows the prune left, and writes no activity point
// before the cut again. The history read again changes no rollup at all;
// the late run's values, at its start before the cut, end its entry's
// hour after the cut as a late value does.
func TestPrunedPeriodsStayFinal(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		for _, tc := range []struct {
			name  string
			after func(t *testing.T, db *DB, pts []Point, late *Run)
			kept  time.Time // the rollups that start before it stay as they were
		}{
			{"the history read again", func(t *testing.T, db *DB, pts []Point, _ *Run) {
				points(t, db, day0.Add(97*time.Hour), pts...)
			}, day0.Add(1000 * time.Hour)},
			{"a run that began before the prune", func(t *testing.T, db *DB, _ []Point, late *Run) {
				_, err := db.SaveEntries(ctx, late, []Entry{entry("a", false, map[string]any{"players": 35.0})})
				require.NoError(t, err)
				require.NoError(t, db.FinishRun(ctx, late, OutcomeOK, day0.Add(98*time.Hour)))
			}, cutInDay2},
		} {
			t.Run(tc.name, func(t *testing.T) {
				db := open(t, pgtest.NewLike(t, dsn))
				pts := aroundCut(t, db)
				late, err := db.BeginRun(ctx, "game", day0.Add(52*time.Hour))
				require.NoError(t, err)
				before := rollupRows(t, db, tc.kept)
				n, err := db.Prune(ctx, cutInDay2, time.Time{})
				require.NoError(t, err)
				require.Equal(t, cutInDay2, n.Cut)
				require.Equal(t, before, rollupRows(t, db, tc.kept))

				tc.after(t, db, pts, late)
				assert.Equal(t, before, rollupRows(t, db, tc.kept))
				assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM activity_points WHERE time < ?`, cutInDay2.Unix()),
					"the point that holds across the cut, and none read again")
			})
		}
	})
}

// rollupRows are the rows of both rollup tables whose period starts
// before the time before.
func rollupRows(t *testing.T, db *DB, before time.Time) [][]string {
	t.Helper()
	return [][]string{
		table(t, db, `SELECT * FROM directory_rollups WHERE start_at < ? ORDER BY kind, ident, id, member, period, start_at`, before.Unix()),
		table(t, db, `SELECT * FROM platform_rollups WHERE start_at < ? ORDER BY period, start_at`, before.Unix()),
	}
}
