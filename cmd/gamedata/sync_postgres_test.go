package main

import (
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain stops the PostgreSQL server the tests started, if any.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// sync --db postgres://… writes the same schema to a real PostgreSQL,
// the password never in a message.
func TestSyncPostgres(t *testing.T) {
	t.Parallel()
	dsn := pgtest.NewDatabase(t)
	twin := gamedatatest.NewServer(gamedatatest.WithSize(12, 3, 3))
	defer twin.Close()
	for i, want := range []string{"run 1 ok", "run 2 ok"} {
		code, _, errOut := cli(t, twin.URL, "sync", "--db", dsn, "--no-cache", "--range", "24h")
		require.Equal(t, 0, code, errOut)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		require.Len(t, lines, 1, errOut)
		assert.Contains(t, lines[0], want, "run %d", i+1)
	}
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	var runs, values int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM runs WHERE outcome = 'ok'`).Scan(&runs))
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM directory_values`).Scan(&values))
	assert.Equal(t, 2, runs)
	assert.Positive(t, values)

	bad := strings.Replace(dsn, "postgres@", "postgres:s3cret@", 1)
	bad = strings.Replace(bad, "/t", "/missing_t", 1)
	code, _, errOut := cli(t, twin.URL, "sync", "--db", bad, "--no-cache")
	assert.Equal(t, 1, code)
	assert.NotContains(t, errOut, "s3cret", "the password is not said")
	assert.Regexp(t, `^gamedata: sync: there is no database missing_t\w+ at 127\.0\.0\.1:\d+; create it \(createdb missing_t\w+\) or check --db\n$`, errOut)
}
