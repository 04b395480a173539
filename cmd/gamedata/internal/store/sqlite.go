package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"text/template"
	"time"

	sqlitedriver "modernc.org/sqlite" // the database/sql driver "sqlite", in pure Go
	sqlite3 "modernc.org/sqlite/lib"
)

// sqlite is a SQLite file, through modernc.org/sqlite.
type sqlite struct{}

func (sqlite) name() string { return "sqlite" }

// open opens the file with every transaction beginning IMMEDIATE (a
// writer takes the write lock when it begins, so reading the schema
// version and migrating are one atomic step), a busy timeout long enough
// for another run's write to finish, and synchronous=NORMAL, which in
// WAL mode keeps every commit across a crash of the process.
func (sqlite) open(path string) (*sql.DB, error) {
	if path == "" {
		return nil, fmt.Errorf("no database file given")
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("a SQLite file name may not hold ? or #: rename the file")
	}
	db, err := sql.Open("sqlite", fmt.Sprintf("%s?_txlock=immediate&_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)", path, busyTimeout.Milliseconds()))
	if err != nil {
		return nil, err
	}
	// One connection: the package never reads outside a transaction
	// while it writes, and SQLite has one writer at a time anyway.
	db.SetMaxOpenConns(1)
	return db, nil
}

func (sqlite) lockWrites(context.Context, *sql.Tx) error { return nil }

func (sqlite) hasTable(ctx context.Context, tx *sql.Tx, table string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&n)
	return n > 0, err
}

func (sqlite) rebind(query string) string { return query }

func (sqlite) schemaFuncs() template.FuncMap {
	return template.FuncMap{
		"real":         func() string { return "REAL" },
		"serial":       func() string { return "INTEGER PRIMARY KEY" },
		"withoutRowid": func() string { return "WITHOUT ROWID" },
		"fillfactor":   func(string, int) string { return "" },
		// strftime reads RFC 3339 with Z or an offset and any fraction,
		// and truncates to the second.
		"epoch": func(col string) string { return "CAST(strftime('%s', " + col + ") AS INTEGER)" },
		// julianday keeps the fraction of a second that strftime drops.
		"instant": func(col string) string { return "julianday(" + col + ")" },
	}
}

// busyTimeout is how long a writer waits for another to finish.
const busyTimeout = time.Minute

// prepare switches the file to WAL mode, after the migrations so that a
// file this program refuses is left as it was: readers (Grafana among
// them) then never block a run, nor a run them. SQLite makes the switch
// by reading the file and then writing it, and a read that turns into a
// write does not wait through busy_timeout: while another run writes, it
// fails at once with SQLITE_BUSY, so it is tried again until it is made,
// ctx ends or busyTimeout has passed.
func (sqlite) prepare(ctx context.Context, db *sql.DB) error {
	deadline := time.Now().Add(busyTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		var mode string
		err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode)
		if err == nil && mode != "wal" {
			err = db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode)
		}
		var serr *sqlitedriver.Error
		if !errors.As(err, &serr) || serr.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("journal_mode WAL: %w", err)
			}
			return nil
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
