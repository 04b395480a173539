package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"text/template"
)

// dialect is what differs between the two databases: how to open one,
// how a transaction keeps other writers out, placeholders, the few types
// and functions the schema spells differently, and what is done after
// migrating. Everything else (the schema's shape, every query and write)
// is shared, so both databases hold the same data the same way.
type dialect interface {
	name() string
	open(dsn string) (*sql.DB, error)
	// lockWrites makes tx the only writer until it ends. SQLite's
	// transactions already are (they begin IMMEDIATE).
	lockWrites(ctx context.Context, tx *sql.Tx) error
	// hasTable reports whether a table exists, without creating anything.
	hasTable(ctx context.Context, tx *sql.Tx, table string) (bool, error)
	// rebind turns the ? placeholders of a query into the dialect's.
	rebind(query string) string
	// schemaFuncs spell what the schema's templates leave to the dialect.
	schemaFuncs() template.FuncMap
	// prepare runs after migrations, outside their transaction.
	prepare(ctx context.Context, db *sql.DB) error
}

// dollarRebind numbers ? placeholders as $1, $2, … for PostgreSQL. The
// queries of this package hold no ? inside a literal.
func dollarRebind(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
