package store

import (
	"context"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A text member that is null in some entries (organization) is not a
// series: the collector leaves its text out of Values and passes its null
// as nil, and no NULL row is written for it. A numeric member's null
// still is, once the member has held a number, and a null that stays null
// when the coverage changes writes nothing.
func TestTextMembersAreNotSeries(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		run(t, db, day0,
			entry("a", false, map[string]any{"players": 10.0, "organization": nil}),
			entry("b", false, map[string]any{"players": 5.0})) // b's organization is text: not in Values
		run(t, db, day0.Add(time.Hour),
			entry("a", true, map[string]any{"players": nil, "organization": nil}),
			entry("b", false, map[string]any{"players": 5.0}))
		run(t, db, day0.Add(2*time.Hour),
			entry("a", false, map[string]any{"players": nil, "organization": nil}),
			entry("b", false, map[string]any{"players": 5.0}))
		assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE member = 'organization'`), "text is no series")
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE ident = 'a' AND member = 'players' AND value IS NULL`),
			"a's players became unavailable once; the coverage changing after does not repeat it")
	})
}

// Migration 4 moves the NULL rows of text members out of a database that
// version 2 wrote, and keeps every row of a member that held a number.
func TestMigrateMovesTextRowsOut(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		old, err := connect(dsn)
		require.NoError(t, err)
		require.NoError(t, old.migrateTo(ctx, 2))
		for _, q := range []string{
			`INSERT INTO directory_values (kind, ident, id, member, at, run_id, value, partial_coverage, listed) VALUES ('game', 'a', '', 'players', 100, 1, 7, 0, 1)`,
			`INSERT INTO directory_values (kind, ident, id, member, at, run_id, value, partial_coverage, listed) VALUES ('game', 'a', '', 'players', 200, 2, NULL, 0, 1)`,
			`INSERT INTO directory_values (kind, ident, id, member, at, run_id, value, partial_coverage, listed) VALUES ('game', 'b', '', 'players', 100, 1, NULL, 0, 1)`,
			`INSERT INTO directory_values (kind, ident, id, member, at, run_id, value, partial_coverage, listed) VALUES ('game', 'a', '', 'organization', 100, 1, NULL, 0, 1)`,
			`INSERT INTO directory_values (kind, ident, id, member, at, run_id, value, partial_coverage, listed) VALUES ('game', 'a', '', 'organization', 300, 3, NULL, 0, 0)`,
		} {
			_, err := old.db.ExecContext(ctx, q)
			require.NoError(t, err, q)
		}
		require.NoError(t, old.Close())

		db := open(t, dsn)
		assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE member = 'organization'`))
		assert.Equal(t, 3, count(t, db, `SELECT COUNT(*) FROM directory_values WHERE member = 'players'`), "a number's rows and its nulls stay")
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM series_members`))
	})
}
