package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"modernc.org/sqlite" // the database/sql driver "sqlite", in pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// migrations bring a database from one schema version to the next, in
// order: a database is migrated forward, never dropped. Version n is the
// state after migrations[:n].
var migrations = []string{
	`CREATE TABLE directory (
		kind TEXT NOT NULL, ident TEXT NOT NULL DEFAULT '', id TEXT NOT NULL DEFAULT '',
		title TEXT, players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, id));
	CREATE TABLE packages (
		kind TEXT NOT NULL, ident TEXT NOT NULL,
		title TEXT, players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident));
	CREATE TABLE servers (
		id TEXT NOT NULL PRIMARY KEY,
		name TEXT, players REAL, max_players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);
	CREATE TABLE history (
		kind TEXT NOT NULL, ident TEXT NOT NULL, captured_at TEXT NOT NULL,
		players REAL, partial_coverage INTEGER NOT NULL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, captured_at));
	CREATE TABLE activity_points (
		time TEXT NOT NULL PRIMARY KEY,
		players REAL, average INTEGER NOT NULL, partial_coverage INTEGER NOT NULL,
		current INTEGER NOT NULL, interval_start TEXT, interval_end TEXT,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);`,
}

// store is an open database and the rows a sync added and changed.
type store struct {
	db     *sql.DB
	now    string
	counts counts
}

// counts are rows inserted and updated, by table.
type counts map[string][2]int

func (c counts) String() string {
	s := ""
	for _, t := range []string{"directory", "packages", "servers", "history", "activity_points"} {
		s += fmt.Sprintf("%s +%d ~%d; ", t, c[t][0], c[t][1])
	}
	return s + "(+ inserted, ~ updated)"
}

// busyTimeout is how long a sync waits for another's write transaction
// (two syncs of one file, an hourly run that overlaps the last) before it
// fails with "database is locked": long enough for any one transaction
// of another run.
const busyTimeout = time.Minute

// openStore opens the database at path, made if it does not exist, and
// migrates it to this program's schema. It is switched to WAL mode, so a
// reader never waits for a sync, only once migrate has found it to be a
// schema this program knows: a database it refuses is left as it was.
func openStore(ctx context.Context, path string) (*store, error) {
	db, err := sql.Open("sqlite", fmt.Sprintf("%s?_pragma=busy_timeout(%d)", path, busyTimeout.Milliseconds()))
	if err != nil {
		return nil, err
	}
	if err = migrate(ctx, db); err == nil {
		err = useWAL(ctx, db)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("sync: %s: %w", path, err)
	}
	return &store{db: db, now: time.Now().UTC().Format(time.RFC3339), counts: counts{}}, nil
}

// useWAL switches the database to WAL mode, which it keeps. SQLite makes
// the switch by reading the file and then writing it, and a read that
// turns into a write cannot wait through busy_timeout: while another run
// writes, the switch fails at once with SQLITE_BUSY. It is tried again
// until it is made, ctx ends, or busyTimeout has passed.
func useWAL(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		var mode string
		err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
		if err == nil && mode != "wal" {
			err = db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode)
		}
		var sqliteErr *sqlite.Error
		if !errors.As(err, &sqliteErr) || sqliteErr.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// migrate reads the schema version and applies the migrations the
// database has not had, all in one write transaction (BEGIN IMMEDIATE, on
// a connection of its own): of several syncs started at once on a new
// file, one migrates and the others wait, then find nothing to do. A
// database of a newer version is refused before anything is written.
func migrate(ctx context.Context, db *sql.DB) (err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			// Not ctx: a cancelled migration must still let go of the lock.
			conn.ExecContext(context.Background(), `ROLLBACK`)
		}
	}()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var version int
	if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return err
	}
	if version > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this program's %d: use a newer gamedata", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		if _, err := conn.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migration to version %d: %w", v+1, err)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, v+1); err != nil {
			return err
		}
	}
	_, err = conn.ExecContext(ctx, `COMMIT`)
	return err
}

// row is one row to upsert: its table, its key columns and values, its
// other columns and values, and the record as sent.
type row struct {
	table      string
	keys, cols []string
	keyv, colv []any
	raw        string
}

// upsert inserts the rows that are new and updates those whose record
// changed, in one transaction, and counts both.
func (s *store) upsert(ctx context.Context, rows []row) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range rows {
		cols := append(append([]string{}, r.cols...), "raw", "synced_at")
		vals := append(append([]any{}, r.colv...), r.raw, s.now)
		insert := fmt.Sprintf(`INSERT INTO %s (%s, %s) VALUES (%s) ON CONFLICT DO NOTHING`, r.table,
			strings.Join(r.keys, ", "), strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(r.keys)+len(cols)), ", "))
		res, err := tx.ExecContext(ctx, insert, append(append([]any{}, r.keyv...), vals...)...)
		if err != nil {
			return fmt.Errorf("%s: %w", r.table, err)
		}
		kind := 0 // inserted
		if n, _ := res.RowsAffected(); n == 0 {
			update := fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ? AND raw IS NOT ?`, r.table,
				strings.Join(cols, " = ?, "), strings.Join(r.keys, " = ? AND "))
			if res, err = tx.ExecContext(ctx, update, append(append(vals, r.keyv...), r.raw)...); err != nil {
				return fmt.Errorf("%s: %w", r.table, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // unchanged
			}
			kind = 1 // updated
		}
		c := s.counts[r.table]
		c[kind]++
		s.counts[r.table] = c
	}
	return tx.Commit()
}

// text is the first of names that is a string member, as sent, or NULL.
func text(f gamedata.Fields, names ...string) any {
	for _, n := range names {
		if t, ok := f.Text(n); ok {
			return t.Unsanitized()
		}
	}
	return nil
}

// metric is a numeric member, or NULL: unavailable is never 0.
func metric(f gamedata.Fields, name string) any {
	if v, ok := f.Metric(name).Get(); ok {
		return v
	}
	return nil
}
