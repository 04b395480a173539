package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Several syncs started at once on a file that does not exist yet all
// succeed: the schema version is read and migrated in one write
// transaction, so one run migrates and the others find it done.
func TestSyncConcurrentFirstRuns(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(2, 1, 1), gamedatatest.WithHistoryPoints(4))
	defer twin.Close()
	path := filepath.Join(t.TempDir(), "new.sqlite")
	const runs = 6
	var wg sync.WaitGroup
	codes := make([]int, runs)
	errs := make([]string, runs)
	start := make(chan struct{})
	for i := range runs {
		wg.Go(func() {
			var stdout, stderr bytes.Buffer
			<-start
			codes[i] = run(context.Background(), []string{"--base-url", twin.URL, "--rate", "0", "sync", "--db", path, "--range", "24h"}, &stdout, &stderr)
			errs[i] = stderr.String()
		})
	}
	close(start)
	wg.Wait()
	for i := range runs {
		assert.Equal(t, 0, codes[i], "run %d: %s", i, errs[i])
	}
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	var versions int
	require.NoError(t, db.QueryRow(`SELECT COUNT(*) FROM schema_version`).Scan(&versions))
	assert.Equal(t, len(migrations), versions, "each migration applied once")
}

// Stores opened at once on new files all open: in each of ten rounds,
// eight openStore calls race to migrate one new file, and every one
// succeeds with the schema migrated once.
func TestOpenStoreConcurrently(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for round := range 10 {
		path := filepath.Join(dir, fmt.Sprintf("round%d.sqlite", round))
		const opens = 8
		errs := make([]error, opens)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range opens {
			wg.Go(func() {
				<-start
				s, err := openStore(context.Background(), path)
				if err == nil {
					err = s.db.Close()
				}
				errs[i] = err
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			require.NoError(t, err, "round %d, open %d", round, i)
		}
	}
}

// A database of a newer schema version is refused before anything about
// the file changes: its bytes and its journal mode stay as they were, and
// no WAL file appears.
func TestSyncRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	path := filepath.Join(t.TempDir(), "newer.sqlite")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec(`PRAGMA journal_mode=DELETE;
		CREATE TABLE schema_version (version INTEGER NOT NULL);
		INSERT INTO schema_version (version) VALUES (99);
		CREATE TABLE future (x TEXT)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	code, _, errOut := cli(t, twin.URL, "sync", "--db", path)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, errOut, "schema version 99 is newer")

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(before, after), "the file's bytes are unchanged")
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		assert.NoFileExists(t, path+suffix)
	}
	db, err = sql.Open("sqlite", path)
	require.NoError(t, err)
	defer db.Close()
	var mode string
	require.NoError(t, db.QueryRow(`PRAGMA journal_mode`).Scan(&mode))
	assert.Equal(t, "delete", mode)
}

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
