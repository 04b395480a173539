package store

import (
	"context"
	"os"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(pruneHelperEnv); spec != "" {
		os.Exit(pruneHelper(spec))
	}
	os.Exit(pgtest.Main(m))
}

// isPostgres reports whether conn names a PostgreSQL database.
func isPostgres(conn string) bool {
	c, err := dsn.Parse(conn)
	return err == nil && c.Kind == dsn.Postgres
}

// open opens dsn and closes it when the test ends.
func open(t *testing.T, dsn string) *DB {
	t.Helper()
	db, err := Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db
}
