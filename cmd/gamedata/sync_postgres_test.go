package main

import (
	"database/sql"
	"net/url"
	"os"
	"strconv"
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

// Idents the database cannot keep as sent are recorded as failures
// naming them, and the run goes on; "x\ufffdy" stays apart from
// "x\x00y", and a 3,000-byte ident does not stop a PostgreSQL run.
func TestSyncOddIdents(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 3000)
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		twin := gamedatatest.NewServer(gamedatatest.WithSize(4, 1, 1), gamedatatest.WithHistoryPoints(4))
		defer twin.Close()
		for _, ident := range []string{"x\x00y", "x\ufffdy", long} {
			require.NoError(t, twin.AddPackage("game", ident, "odd"))
		}
		games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
		for run := 1; run <= 2; run++ {
			code, _, errOut := cli(t, twin.URL, "sync", "--db", dsn, "--no-cache", "--range", "24h")
			assert.Equal(t, 1, code, errOut)
			assert.Contains(t, errOut, "2 item(s) failed after their retries: see the failures table (run "+strconv.Itoa(run)+")")
		}
		db := pgtest.Open(t, dsn)
		var n, packages, odd int
		require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM directory`).Scan(&n))
		assert.Equal(t, games-2, n, "every entry but the two refused")
		require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM packages`).Scan(&packages))
		assert.Equal(t, games-2, packages, "the run went on to the details")
		require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM directory WHERE ident = $1`, "x\ufffdy").Scan(&odd))
		assert.Equal(t, 1, odd, `"x\ufffdy" is stored as sent`)
		rows, err := db.Query(`SELECT item FROM failures WHERE run_id = 2 ORDER BY item`)
		require.NoError(t, err)
		var items []string
		for rows.Next() {
			var item string
			require.NoError(t, rows.Scan(&item))
			items = append(items, item)
		}
		require.NoError(t, rows.Err())
		require.Len(t, items, 2)
		assert.Equal(t, `"game"/"x\x00y"`, items[1])
		assert.Regexp(t, `^"game"/"a{190,}… \(3009 bytes, sha256 [0-9a-f]{16}\)$`, items[0])
	})
}
