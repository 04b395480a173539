package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
)

// Every live run holds a share of its database's run lock, from the
// write that records its start to its end; the lock ends with the
// process or with its connection to the database, whichever goes first.
// A run that starts while no other run holds the lock knows that every
// run still recorded as running will never record its end: its process
// died or lost the database. While another run is live, that is not
// known, and the rows are left for a later run to find.

// runLockKey is the PostgreSQL advisory lock of the runs, in two int4
// halves: "gd" and "runs" (the writers' lockKey is "gd" and "sync").
const runLockKey1, runLockKey2 = 0x6764, 0x72756e73

// runLockSuffix names a SQLite file's run lock: the file beside it.
const runLockSuffix = "-runlock"

// holdRun takes a share of the run lock for a run that starts now, and
// says whether no other run held it. It is called inside the write that
// records the run's start, which writers take in turns, so no other run
// starts between the two.
func (s *DB) holdRun(ctx context.Context) (release func(), alone bool, err error) {
	if s.conn.Kind == dsn.Postgres {
		return holdAdvisory(ctx, s.db)
	}
	path := s.conn.Conn
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real // SQLite's own files are named after the file, not the link
	}
	return holdFile(path + runLockSuffix)
}

// holdAdvisory holds the lock shared on a connection of its own, and
// tries it exclusively as well: that succeeds only when no other session
// holds it. Release unlocks it, so that a run starting next finds it
// free (a session that ends releases its locks only once the server has
// seen it go), then ends the session rather than return it to the pool:
// were the unlock lost, the pool would keep the lock for as long as it
// keeps the connection.
func holdAdvisory(ctx context.Context, db *sql.DB) (func(), bool, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	release := func() {
		_, _ = conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock_shared($1, $2)`, runLockKey1, runLockKey2)
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	var alone bool
	_, err = conn.ExecContext(ctx, `SELECT pg_advisory_lock_shared($1, $2)`, runLockKey1, runLockKey2)
	if err == nil {
		err = conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1, $2)`, runLockKey1, runLockKey2).Scan(&alone)
	}
	if err == nil && alone {
		_, err = conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1, $2)`, runLockKey1, runLockKey2)
	}
	if err != nil {
		release()
		return nil, false, err
	}
	return release, alone, nil
}

// abandon records every run still running as abandoned, ended by at (or
// when it started, if later): called by a run that started alone, it
// knows they died without recording their end.
func (s *DB) abandon(ctx context.Context, tx *sql.Tx, at int64) error {
	_, err := tx.ExecContext(ctx, s.q(`UPDATE runs SET outcome = ?, finished_at = CASE WHEN started_at > ? THEN started_at ELSE ? END
		WHERE outcome = ?`), string(OutcomeAbandoned), at, at, string(OutcomeRunning))
	return err
}
