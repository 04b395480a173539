package main

import (
	"database/sql"
	"encoding/json"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rowCounts(t *testing.T, db *sql.DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"directory", "packages", "servers", "history", "activity_points"} {
		var n int
		require.NoError(t, db.QueryRow("SELECT COUNT(*) FROM "+table).Scan(&n))
		out[table] = n
	}
	return out
}

// A sync fills every table; a second run over unchanged data adds no row;
// after the service's data moves on, only the new history entries and
// points are added. Nulls are NULL.
func TestSync(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(6, 2, 2), gamedatatest.WithHistoryPoints(48))
	defer twin.Close()
	path := filepath.Join(t.TempDir(), "games.sqlite")
	sync := func() {
		t.Helper()
		code, _, errOut := cli(t, twin.URL, "sync", "--db", path, "--range", "24h")
		require.Equal(t, 0, code, errOut)
		assert.Empty(t, errOut, "a pipe gets nothing but errors")
	}
	sync()
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	first := rowCounts(t, db)
	games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
	assert.Equal(t, games, first["directory"])
	assert.Equal(t, games, first["packages"])
	assert.Positive(t, first["history"])
	var activity struct{ Points []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("24h"), &activity))
	assert.Len(t, activity.Points, first["activity_points"])

	var nulls, zeros int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM activity_points WHERE players IS NULL`).Scan(&nulls))
	assert.Positive(t, nulls, "unavailable players are NULL")
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM history WHERE players IS NULL`).Scan(&nulls))
	assert.Positive(t, nulls, "unavailable history players are NULL")
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM history WHERE players = 0`).Scan(&zeros))
	assert.Zero(t, zeros, "never 0 for unavailable")
	var partial int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM history WHERE partial_coverage = 1`).Scan(&partial))
	assert.Positive(t, partial, "partial coverage is a column")
	var version int
	require.NoError(t, db.QueryRow(`SELECT MAX(version) FROM schema_version`).Scan(&version))
	assert.Equal(t, len(migrations), version)

	var raw string
	require.NoError(t, db.QueryRow(`SELECT raw FROM packages LIMIT 1`).Scan(&raw))
	assert.Contains(t, raw, `"ident"`, "the record as sent is kept")

	sync()
	assert.Equal(t, first, rowCounts(t, db), "a run over unchanged data adds no row")

	twin.Advance(2 * time.Hour)
	sync()
	after := rowCounts(t, db)
	assert.Greater(t, after["activity_points"], first["activity_points"], "new points are added")
	assert.Equal(t, first["directory"], after["directory"])
	assert.Equal(t, first["packages"], after["packages"])
	assert.GreaterOrEqual(t, after["history"], first["history"], "old entries kept, new ones added")
}
