package store

import (
	"context"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A version-1 database with two history entries of one package, and two
// activity points, within one second migrates to version 2: the later of
// each pair stays in its table, the earlier moves to
// migration_set_aside as version 1 held it, and no row is lost.
func TestMigrateVersion1SameSecond(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		old, err := connect(dsn)
		require.NoError(t, err)
		require.NoError(t, old.migrateTo(ctx, 1))
		for _, q := range []string{
			`INSERT INTO history (kind, ident, captured_at, players, partial_coverage, raw, synced_at) VALUES ('game', 'a', '2026-08-24T08:44:00.900Z', 2, 0, '{"later":true}', '2026-11-20T10:00:03Z')`,
			`INSERT INTO history (kind, ident, captured_at, players, partial_coverage, raw, synced_at) VALUES ('game', 'a', '2026-08-24T08:44:00.1Z', 1, 0, '{"earlier":true}', '2026-11-20T10:00:03Z')`,
			`INSERT INTO history (kind, ident, captured_at, players, partial_coverage, raw, synced_at) VALUES ('game', 'b', '2026-08-24T08:44:00.1Z', 3, 0, '{"b":true}', '2026-11-20T10:00:03Z')`,
			`INSERT INTO activity_points (time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at) VALUES ('2026-11-20T09:55:00.250Z', 5, 0, 0, 0, NULL, NULL, '[1]', '2026-11-20T10:00:04Z')`,
			`INSERT INTO activity_points (time, players, average, partial_coverage, current, interval_start, interval_end, raw, synced_at) VALUES ('2026-11-20T09:55:00.750Z', 6, 0, 0, 0, NULL, NULL, '[2]', '2026-11-20T10:00:04Z')`,
		} {
			_, err := old.db.ExecContext(ctx, q)
			require.NoError(t, err, q)
		}
		require.NoError(t, old.Close())

		db := open(t, dsn)
		v, err := db.SchemaVersion(ctx)
		require.NoError(t, err)
		assert.Equal(t, Version, v)
		var raw string
		require.NoError(t, db.db.QueryRow(`SELECT raw FROM history WHERE ident = 'a'`).Scan(&raw))
		assert.Equal(t, `{"later":true}`, raw, "the later entry of the second stays")
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM history WHERE ident = 'b'`))
		require.NoError(t, db.db.QueryRow(`SELECT raw FROM activity_points`).Scan(&raw))
		assert.Equal(t, `[2]`, raw)

		rows, err := db.db.Query(`SELECT from_table, kind, ident, at, raw, synced_at FROM migration_set_aside ORDER BY from_table`)
		require.NoError(t, err)
		var aside [][6]string
		for rows.Next() {
			var r [6]string
			require.NoError(t, rows.Scan(&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]))
			aside = append(aside, r)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, [][6]string{
			{"activity_points", "", "", "2026-11-20T09:55:00.250Z", "[1]", "2026-11-20T10:00:04Z"},
			{"history", "game", "a", "2026-08-24T08:44:00.1Z", `{"earlier":true}`, "2026-11-20T10:00:03Z"},
		}, aside, "the other entry of each second, as version 1 held it")
	})
}
