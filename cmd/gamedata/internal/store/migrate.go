package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"text/template"
)

// Version is the schema version this program writes.
var Version = len(migrations)

// migrate reads the schema version and applies the migrations the
// database has not had, all inside one write transaction: runs that
// start together on a new database take turns, and the second finds the
// first one's work done. A database of a newer version is refused before
// anything in it changes.
func (s *DB) migrate(ctx context.Context) error { return s.migrateTo(ctx, len(migrations)) }

// migrateTo migrates the database to version target, at most.
func (s *DB) migrateTo(ctx context.Context, target int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		exists, err := s.d.hasTable(ctx, tx, "schema_version")
		if err != nil {
			return err
		}
		version := 0
		if exists {
			if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
				return err
			}
		}
		if version > len(migrations) {
			return fmt.Errorf("schema version %d is newer than this program's %d: use a newer gamedata", version, len(migrations))
		}
		if version >= target {
			return nil
		}
		if !exists {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE schema_version (version INTEGER NOT NULL)`); err != nil {
				return err
			}
		}
		for v := version; v < target; v++ {
			script, err := s.schema(v)
			if err != nil {
				return err
			}
			if strings.TrimSpace(script) != "" { // a migration may have nothing to do in a dialect
				if _, err := tx.ExecContext(ctx, script); err != nil {
					return fmt.Errorf("migration to version %d: %w", v+1, err)
				}
			}
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_version (version) VALUES (?)`), v+1); err != nil {
				return err
			}
		}
		return nil
	})
}

// schema is migration v in the dialect's words.
func (s *DB) schema(v int) (string, error) {
	t, err := template.New("migration").Funcs(s.d.schemaFuncs()).Parse(migrations[v])
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, nil); err != nil {
		return "", err
	}
	return b.String(), nil
}

// SchemaVersion returns the database's schema version.
func (s *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v)
	return int(v.Int64), err
}
