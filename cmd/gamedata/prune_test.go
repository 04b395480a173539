package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --keep-raw and --keep-hourly take days as well as Go's durations;
// anything else, no --db, or hourly rollups kept for less than raw rows
// is bad usage, said before any database is opened: a value that is no
// duration is refused with what is wrong with it (no unit, a unit it
// does not take) and the units it takes.
func TestPruneOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"prune", "--db", "g.sqlite"}, 90 * 24 * time.Hour},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "7d"}, 7 * 24 * time.Hour},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "36h"}, 36 * time.Hour},
	} {
		p, err := parseArgs(t, tc.args...)
		require.NoError(t, err, "%v", tc.args)
		assert.Equal(t, tc.want, p.opts.(*pruneOptions).KeepRaw, "%v", tc.args)
	}
	for _, tc := range []struct {
		args   []string
		hourly time.Duration
	}{
		{[]string{"prune", "--db", "g.sqlite"}, 0},
		{[]string{"prune", "--db", "g.sqlite", "--keep-hourly", "400d"}, 400 * 24 * time.Hour},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "7d", "--keep-hourly", "7d"}, 7 * 24 * time.Hour},
	} {
		p, err := parseArgs(t, tc.args...)
		require.NoError(t, err, "%v", tc.args)
		assert.Equal(t, tc.hourly, p.opts.(*pruneOptions).KeepHourly, "%v", tc.args)
	}
	const units = "; the units are d (days of 24 hours), h, m and s"
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"prune"}, "--db"},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "0d"}, `prune --keep-raw "0d": want a duration above 0, such as 90d or 2160h`},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "-5d"}, `prune --keep-raw "-5d": want a duration above 0`},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "90"}, `prune --keep-raw "90": a number needs a unit, such as 90d for days or 90h for hours` + units},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "1y"}, `prune --keep-raw "1y": no unit "y": give days, such as 365d` + units},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "3mo"}, `prune --keep-raw "3mo": no unit "mo"` + units},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "1.5d"}, `prune --keep-raw "1.5d": d takes a whole number of days; for part of one, give hours, such as 36h` + units},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "soon"}, `prune --keep-raw "soon": want a number and a unit, such as 90d or 2160h` + units},
		{[]string{"prune", "--db", "g.sqlite", "extra"}, "argument"},
		{[]string{"prune", "--db", "g.sqlite", "--keep-hourly", "0d"}, `prune --keep-hourly "0d": want a duration above 0`},
		{[]string{"prune", "--db", "g.sqlite", "--keep-hourly", "a year"}, `prune --keep-hourly "a year": want a number and a unit, such as 90d or 2160h` + units},
		{[]string{"prune", "--db", "g.sqlite", "--keep-hourly", "30d"}, "shorter than --keep-raw 90d"},
		{[]string{"prune", "--db", "g.sqlite", "--keep-raw", "400d", "--keep-hourly", "399d"}, "shorter than --keep-raw"},
	} {
		_, err := parseArgs(t, tc.args...)
		assert.True(t, message.IsUsage(err), "%v: %v", tc.args, err)
		assert.ErrorContains(t, err, tc.says, "%v", tc.args)
	}
}

// prune on a SQLite file that does not exist fails and makes none; on a
// database sync wrote it prunes and says what it deleted.
func TestPruneCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.sqlite")
	code, _, stderr := cli(t, "http://127.0.0.1:0", "prune", "--db", missing)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no such database")
	_, err := os.Stat(missing)
	assert.True(t, os.IsNotExist(err), "no file made under a name the user did not ask for")

	twin := newTwin(t)
	db := filepath.Join(dir, "g.sqlite")
	code, _, stderr = cli(t, twin.URL, "sync", "--db", db, "--no-cache")
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := cli(t, twin.URL, "prune", "--db", db, "--keep-raw", "1d")
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.True(t, strings.Contains(stderr, "every rollup kept"), stderr)

	code, stdout, stderr = cli(t, twin.URL, "prune", "--db", db, "--keep-raw", "1d", "--keep-hourly", "2d")
	assert.Equal(t, 0, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "hourly rollups of entries before")
	assert.Contains(t, stderr, "every daily and platform rollup kept")

	// Bad values exit 2 before the database is opened: no file is made.
	code, _, stderr = cli(t, twin.URL, "prune", "--db", missing, "--keep-hourly", "1h")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--keep-hourly 1h is shorter than --keep-raw 90d")
	_, err = os.Stat(missing)
	assert.True(t, os.IsNotExist(err))
}

// sync, prune --keep-raw shorter than the service's history window, and
// sync again, the service unchanged (issue 36): no rollup row changes.
// The second sync reads the history before the cut again; the cut's day
// was rolled again from the rows the prune left, and went from 86,400
// covered seconds to those after the last point kept. The rollups as the
// first sync left them are kept in tables of the test's own, which the
// database compares with EXCEPT.
func TestSyncAfterPruneKeepsRollups(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		twin := newTwin(t, gamedatatest.WithHistoryPoints(720)) // hourly over 30 days
		sync := func() {
			t.Helper()
			code, _, errOut := cli(t, twin.URL, "sync", "--db", dsn, "--no-cache", "--range", "30d")
			require.Equal(t, 0, code, errOut)
		}
		db := pgtest.Open(t, dsn)
		rows := func(q string) int {
			t.Helper()
			var n int
			require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM (`+q+`) x`).Scan(&n))
			return n
		}

		sync()
		for _, tbl := range []string{"directory_rollups", "platform_rollups"} {
			_, err := db.Exec(`CREATE TABLE kept_` + tbl + ` AS SELECT * FROM ` + tbl)
			require.NoError(t, err)
		}
		require.Positive(t, rows(`SELECT * FROM kept_platform_rollups`))
		cut := twin.Catalog().Now.Add(-3*24*time.Hour - 30*time.Minute) // inside an hour and a day of the history
		code, _, errOut := cli(t, twin.URL, "prune", "--db", dsn, "--keep-raw", fmt.Sprintf("%ds", time.Since(cut)/time.Second))
		require.Equal(t, 0, code, errOut)
		require.Contains(t, errOut, "activity points before "+cut.Format("2006-01-02T15:04"))
		sync()
		for _, tbl := range []string{"directory_rollups", "platform_rollups"} {
			assert.Zero(t, rows(`SELECT * FROM kept_`+tbl+` EXCEPT SELECT * FROM `+tbl), "%s: rows changed or gone", tbl)
		}
		// The activity is the same, so the platform's rollups are too; a
		// later hour of an entry may have been rolled since.
		assert.Zero(t, rows(`SELECT * FROM platform_rollups EXCEPT SELECT * FROM kept_platform_rollups`), "platform_rollups: rows added or changed")
	})
}
