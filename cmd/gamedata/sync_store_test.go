package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A database made by an earlier schema is migrated forward, never
// dropped: its rows stay.
func TestSyncMigratesForward(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "old.sqlite")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	require.NoError(t, migrate(context.Background(), db))
	_, err = db.Exec(`INSERT INTO servers (id, raw, synced_at) VALUES ('kept', '{}', 'then')`)
	require.NoError(t, err)
	require.NoError(t, migrate(context.Background(), db), "migrating again is a no-op")
	var n int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM servers WHERE id = 'kept'`).Scan(&n))
	assert.Equal(t, 1, n)
	_, err = db.Exec(`INSERT INTO schema_version (version) VALUES (?)`, len(migrations)+1)
	require.NoError(t, err)
	assert.ErrorContains(t, migrate(context.Background(), db), "newer than this program's")
}
