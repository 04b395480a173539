package pgtest

import (
	"database/sql"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite", in pure Go
)

// Open opens dsn, a SQLite file or the URL of a database on a PostgreSQL
// server (as EachDB, NewLike and NewDatabase give them), with a
// connection of the test's own until the test ends: the test reads, and
// may write, what a program keeps there as a user's query would, through
// nothing of the program's. Both drivers take $1, $2, … placeholders, so
// a test's query runs on either as it is written.
func Open(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	driver := "sqlite"
	if IsPostgres(dsn) {
		driver = "pgx"
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// IsPostgres reports whether dsn, as EachDB, NewLike and NewDatabase give
// them, is a database on a PostgreSQL server rather than a SQLite file.
func IsPostgres(dsn string) bool { return strings.HasPrefix(dsn, "postgres://") }
