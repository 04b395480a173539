package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A new database is made at the current version, and every view reads.
func TestOpenNew(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		v, err := db.SchemaVersion(context.Background())
		require.NoError(t, err)
		assert.Equal(t, Version, v)
		for _, view := range []string{"directory_at_run", "directory_segments", "directory_daily", "platform_segments", "platform_daily"} {
			rows, err := db.db.Query("SELECT * FROM " + view)
			require.NoError(t, err, view)
			rows.Close()
		}
		var days int
		require.NoError(t, db.db.QueryRow(`SELECT COUNT(*) FROM calendar_days`).Scan(&days))
		assert.Zero(t, days, "no data, no day")
	})
}

// A database of version 1, as the first sync wrote it, is migrated
// forward: every row stays, its times become Unix seconds, and its
// directory entries are ready for the next run.
func TestMigrateFromVersion1(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		old, err := connect(dsn)
		require.NoError(t, err)
		require.NoError(t, old.migrateTo(ctx, 1))
		for _, q := range []string{
			`INSERT INTO directory (kind, ident, id, title, players, raw, synced_at) VALUES ('game', 'a', '', 'A', 12, '{"ident":"a"}', '2026-11-20T10:00:00Z')`,
			`INSERT INTO directory (kind, ident, id, title, players, raw, synced_at) VALUES ('server', '', '192.0.2.1:1', 'S', NULL, '{"id":"192.0.2.1:1"}', '2026-11-20T10:00:00Z')`,
			`INSERT INTO packages (kind, ident, title, players, raw, synced_at) VALUES ('game', 'a', 'A', 12, '{"ident":"a","x":1}', '2026-11-20T10:00:01Z')`,
			`INSERT INTO servers (id, name, players, max_players, raw, synced_at) VALUES ('192.0.2.1:1', 'S', NULL, 64, '{}', '2026-11-20T10:00:02Z')`,
			`INSERT INTO history (kind, ident, captured_at, players, partial_coverage, raw, synced_at) VALUES ('game', 'a', '2026-08-24T08:44:00.707Z', 60.5, 1, '{"p":1}', '2026-11-20T10:00:03Z')`,
			`INSERT INTO history (kind, ident, captured_at, players, partial_coverage, raw, synced_at) VALUES ('game', 'a', '2026-08-25T09:24:09.511036Z', NULL, 0, '{"p":2}', '2026-11-20T10:00:03Z')`,
			`INSERT INTO activity_points (time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at) VALUES ('2026-11-20T09:55:00Z', 5864.71, 1, 1, 0, '2026-11-20T09:55:00Z', '2026-11-20T10:00:00Z', '{}', '2026-11-20T10:00:04Z')`,
			`INSERT INTO activity_points (time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at) VALUES ('2026-11-20T10:00:00Z', NULL, 0, 0, 1, NULL, NULL, '{}', '2026-11-20T10:00:04Z')`,
		} {
			_, err := old.db.ExecContext(ctx, q)
			require.NoError(t, err, q)
		}
		require.NoError(t, old.Close())

		db := open(t, dsn)
		const at = 1795168800 // 2026-11-20T10:00:00Z
		var (
			listing          string
			first, last      int64
			synced           int64
			title            string
			players          float64
			details, reports sql.NullInt64
		)
		require.NoError(t, db.db.QueryRow(`SELECT listing, first_seen, last_seen, synced_at, title, players, details_at, report_at FROM directory WHERE ident = 'a'`).
			Scan(&listing, &first, &last, &synced, &title, &players, &details, &reports))
		assert.Equal(t, "game", listing)
		assert.Equal(t, []int64{at, at, at}, []int64{first, last, synced})
		assert.Equal(t, "A", title)
		assert.Equal(t, 12.0, players)
		assert.False(t, details.Valid, "details are due again: their change key was never recorded")
		assert.False(t, reports.Valid)
		require.NoError(t, db.db.QueryRow(`SELECT listing FROM directory WHERE id = '192.0.2.1:1'`).Scan(&listing))
		assert.Equal(t, "server", listing)

		require.NoError(t, db.db.QueryRow(`SELECT synced_at FROM packages`).Scan(&synced))
		assert.Equal(t, int64(at+1), synced)
		var maxPlayers float64
		var serverPlayers sql.NullFloat64
		require.NoError(t, db.db.QueryRow(`SELECT players, max_players, synced_at FROM servers`).Scan(&serverPlayers, &maxPlayers, &synced))
		assert.False(t, serverPlayers.Valid, "NULL stays NULL")
		assert.Equal(t, []any{64.0, int64(at + 2)}, []any{maxPlayers, synced})

		rows, err := db.db.Query(`SELECT captured_at, players, partial_coverage, raw FROM history ORDER BY captured_at`)
		require.NoError(t, err)
		var got []string
		for rows.Next() {
			var captured int64
			var p sql.NullFloat64
			var partial int
			var raw string
			require.NoError(t, rows.Scan(&captured, &p, &partial, &raw))
			got = append(got, fmt.Sprintf("%d %v %v %d %s", captured, p.Valid, p.Float64, partial, raw))
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []string{"1787561040 true 60.5 1 {\"p\":1}", "1787649849 false 0 0 {\"p\":2}"}, got, "times to the second, rows as they were")

		var tm, start, end sql.NullInt64
		require.NoError(t, db.db.QueryRow(`SELECT time, interval_start, interval_end FROM activity_points WHERE average = 1`).Scan(&tm, &start, &end))
		assert.Equal(t, []int64{at - 300, at - 300, at}, []int64{tm.Int64, start.Int64, end.Int64})
		require.NoError(t, db.db.QueryRow(`SELECT time, interval_start, interval_end FROM activity_points WHERE average = 0`).Scan(&tm, &start, &end))
		assert.Equal(t, int64(at), tm.Int64)
		assert.False(t, start.Valid || end.Valid, "NULL stays NULL")
		var days int
		require.NoError(t, db.db.QueryRow(`SELECT COUNT(*) FROM calendar_days WHERE day = 1795132800`).Scan(&days))
		assert.Equal(t, 1, days, "the day of the activity points kept, for platform_daily")
	})
}

// A database of a newer schema is refused, and the file is left exactly
// as it was: not even its journal mode changes.
func TestNewerVersionRefused(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db, err := Open(ctx, dsn)
		require.NoError(t, err)
		_, err = db.db.Exec(db.q(`INSERT INTO schema_version (version) VALUES (?)`), Version+1)
		require.NoError(t, err)
		if !isPostgres(dsn) { // as a program that does not use WAL would leave it
			_, err = db.db.Exec(`PRAGMA journal_mode=DELETE`)
			require.NoError(t, err)
		}
		require.NoError(t, db.Close())
		before := files(t, dsn)
		_, err = Open(ctx, dsn)
		require.ErrorContains(t, err, fmt.Sprintf("schema version %d is newer than this program's %d: use a newer gamedata", Version+1, Version))
		assert.Equal(t, before, files(t, dsn))
	})
}

// files are the digests of the files of a SQLite database, by name; nil
// for PostgreSQL.
func files(t *testing.T, dsn string) map[string]string {
	t.Helper()
	if isPostgres(dsn) {
		return nil
	}
	out := map[string]string{}
	matches, err := filepath.Glob(dsn + "*")
	require.NoError(t, err)
	for _, m := range matches {
		b, err := os.ReadFile(m)
		require.NoError(t, err)
		out[filepath.Base(m)] = fmt.Sprintf("%x", sha256.Sum256(b))
	}
	return out
}

// Runs that start together on a new database all migrate it, one after
// the other inside the write lock, and switch it to WAL, and none fails:
// in each of several rounds, eight opens race on a new database.
func TestConcurrentOpen(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		rounds := 10
		if isPostgres(dsn) {
			rounds = 2 // each round is a database of its own, made in 0.4 s
		}
		for round := range rounds {
			if round > 0 {
				dsn = pgtest.NewLike(t, dsn)
			}
			const n = 8
			errs := make(chan error, n)
			start := make(chan struct{})
			for range n {
				go func() {
					<-start
					db, err := Open(context.Background(), dsn)
					if err == nil {
						err = db.Close()
					}
					errs <- err
				}()
			}
			close(start)
			for range n {
				require.NoError(t, <-errs, "round %d", round)
			}
			db := open(t, dsn)
			var versions int
			require.NoError(t, db.db.QueryRow(`SELECT COUNT(*) FROM schema_version`).Scan(&versions))
			assert.Equal(t, Version, versions, "each migration applied once")
		}
	})
}

// On PostgreSQL a run's rewrite of an entry's row stays on the row's
// page, which leaves the primary key alone (a HOT update): migration 6
// fills directory's pages to half. On full pages every rewritten row
// moved to another.
func TestDirectoryRewritesStayOnTheirPage(t *testing.T) {
	t.Parallel()
	db := open(t, pgtest.NewDatabase(t))
	rng := rand.New(rand.NewPCG(1, 2))
	players := make([]float64, 1000)
	pages := func() []string {
		return table(t, db, `SELECT ident, (CAST(CAST(ctid AS TEXT) AS POINT))[0] FROM directory ORDER BY ident`)
	}
	scaleRun(t, db, rng, players, scaleStart)
	first := pages()
	require.Len(t, first, len(players))
	scaleRun(t, db, rng, players, scaleStart.Add(time.Hour))
	assert.Equal(t, first, pages())
}
