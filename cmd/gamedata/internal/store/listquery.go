package store

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
)

// joinEach joins to each row of a list of keys the rows of table (as
// alias, its columns cols) that meet cond, which reads the list's
// columns, searching table's index once for each key: the join clause,
// and the condition for the statement's WHERE. SQLite has no LATERAL,
// and its CROSS JOIN keeps the list as the outer loop: without it,
// SQLite searched directory_values by its index on at for each row
// instead of by its key for each member, and 100,000 entries × 3 hours
// took 9 minutes instead of 14 s. PostgreSQL gets the same order as a
// LATERAL join, so that its plan does not rest on the statistics of a
// table written in the same transaction. Its OFFSET 0 keeps the planner
// from pulling the subquery up into a plain join, which it did: with
// statistics of a table just written, it read the whole of
// directory_values for each list of 128 members (a hash join over a
// sequential scan, 64,000 rows for 138 at 20,000 games; issue 40).
func (s *DB) joinEach(table, alias, cols, cond string) (join, where string) {
	if s.d.name() == "postgres" {
		return "CROSS JOIN LATERAL (SELECT " + cols + " FROM " + table + " " + alias + " WHERE " + cond + " OFFSET 0) " + alias, "true"
	}
	return "CROSS JOIN " + table + " " + alias, cond
}

// keyBound is the condition that a row of directory_values as alias,
// already matched to the list's member k, is at op the next argument.
// PostgreSQL gets it as a comparison of the table's whole key, which
// only the primary key can answer: with statistics that had not yet seen
// the hour just written, it estimated one row at or after a span's end
// and walked the index on at for each member, reading 28,313 rows for
// one member and 1.2 s for 128 of them (9 ms as a key comparison), 30 s
// a run at 100,000 entries. SQLite searches the primary key with a bound
// on at, but a row value only filters the member's rows.
func (s *DB) keyBound(alias, op string) string {
	if s.d.name() == "postgres" {
		return "(" + alias + ".kind, " + alias + ".ident, " + alias + ".id, " + alias + ".member, " + alias + ".at) " +
			op + " (k.kind, k.ident, k.id, k.member, ?)"
	}
	return alias + ".at " + op + " ?"
}

// readList runs query, a read over a list of keys, in tx and reads its
// rows through read: on PostgreSQL through pgx, the list as arrays, in
// a statement pgx keeps prepared (its generic plan, chosen after the
// fifth run, searches each key as the plan made for the values does;
// the list as 644 parameters of a statement prepared for each
// transaction cost three times as much a member, issue 40); in SQLite
// as a statement kept prepared, the list as parameters.
func (s *DB) readList(ctx context.Context, tx *sql.Tx, query string, args []any, read func(scannedRows) error) error {
	if s.d.name() == "postgres" {
		var b pgx.Batch
		b.Queue(query, args...)
		return s.sendPG(ctx, tx, &b, func(res pgx.BatchResults) error {
			return readRows(res, func(rows pgx.Rows) error { return read(rows) })
		})
	}
	st, err := s.stmts.stmt(ctx, tx, query)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := read(rows); err != nil {
		return err
	}
	return rows.Err()
}
