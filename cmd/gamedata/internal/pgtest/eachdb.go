package pgtest

import (
	"path/filepath"
	"testing"
)

// EachDB runs f as two parallel subtests, one against a new SQLite file
// and one against a new database on the package's PostgreSQL server: the
// suite both stores must pass alike.
func EachDB(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, filepath.Join(t.TempDir(), "g.sqlite"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		f(t, NewDatabase(t))
	})
}

// NewLike returns a new, empty database of the kind dsn is: a database on
// the package's server for one of its URLs, a new SQLite file otherwise.
func NewLike(t testing.TB, dsn string) string {
	t.Helper()
	if IsPostgres(dsn) {
		return NewDatabase(t)
	}
	return filepath.Join(t.TempDir(), "g.sqlite")
}
