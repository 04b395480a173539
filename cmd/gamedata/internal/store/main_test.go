package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// eachDB runs f against a new SQLite file and a new PostgreSQL database:
// the conformance suite both implementations pass.
func eachDB(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, filepath.Join(t.TempDir(), "g.sqlite"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, pgtest.NewDatabase(t))
	})
}

// newDSN is a new database of the kind dsn is.
func newDSN(t *testing.T, dsn string) string {
	if IsPostgres(dsn) {
		return pgtest.NewDatabase(t)
	}
	return filepath.Join(t.TempDir(), "g.sqlite")
}

// open opens dsn and closes it when the test ends.
func open(t *testing.T, dsn string) *DB {
	t.Helper()
	db, err := Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}
