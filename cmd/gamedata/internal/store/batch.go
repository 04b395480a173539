package store

import (
	"context"
	"database/sql"
	"math/bits"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// batchRows is the most rows one multi-row statement carries: 128 rows
// of 13 columns stay far below both databases' limits on parameters
// (SQLite's 32,766, PostgreSQL's 65,535).
const batchRows = 128

// pgBatchRows is the most rows one PostgreSQL statement carries: its
// rows go as one array a column (flushPG), so no limit on parameters
// binds it, only the memory of the rows gathered.
const pgBatchRows = 4096

// rowBatch gathers the rows of one INSERT and writes them as multi-row
// statements: a statement per row cost a round trip (PostgreSQL) or a
// bind and step through database/sql (SQLite) each, most of a run's
// time at 100,000 entries (BENCHMARKS.md, issue 30). Rows of one
// statement must not share a key: PostgreSQL refuses an ON CONFLICT DO
// UPDATE that meets its own row twice, so a caller that may repeat a key
// flushes first.
type rowBatch struct {
	s          *DB
	tx         *sql.Tx
	head, tail string    // the INSERT up to VALUES, and what follows the rows
	types      []string  // the columns' types, as PostgreSQL's arrays of them
	row        string    // one row's placeholders
	args       []any     // SQLite: the rows' values, row after row
	cols       []pgArray // PostgreSQL: the rows' values, a column each
	rows       int
}

// newRowBatch gathers rows for the statement head VALUES (rows) tail, in
// tx; types are its columns' types in PostgreSQL's words.
func (s *DB) newRowBatch(tx *sql.Tx, head string, types []string, tail string) *rowBatch {
	b := &rowBatch{s: s, tx: tx, head: head, tail: tail, types: types, row: "(" + repeated("?", len(types)) + ")"}
	if s.d.name() == "postgres" {
		b.cols = make([]pgArray, len(types))
	}
	return b
}

// add adds a row of values, and writes the batch when it is full.
func (b *rowBatch) add(ctx context.Context, values ...any) error {
	if b.cols != nil {
		for i, v := range values {
			b.cols[i].add(v)
		}
	} else {
		b.args = append(b.args, values...)
	}
	b.rows++
	if b.rows < batchRows || b.cols != nil && b.rows < pgBatchRows {
		return nil
	}
	return b.flush(ctx)
}

// flush writes the rows gathered: on PostgreSQL in one statement sent
// through pgx (flushPG); on SQLite in statements of a power of two rows
// each, so that a handful of texts serve every count and stay prepared
// (stmtCache).
func (b *rowBatch) flush(ctx context.Context) error {
	if b.cols != nil {
		return b.s.flushPG(ctx, b.tx, nil, b)
	}
	cols := len(b.types)
	args := b.args
	for b.rows > 0 {
		n := chunkLen(b.rows, batchRows)
		st, err := b.s.stmts.stmt(ctx, b.tx, b.query(n))
		if err == nil {
			_, err = st.ExecContext(ctx, args[:n*cols]...)
		}
		if err != nil {
			b.args, b.rows = b.args[:0], 0
			return err
		}
		args, b.rows = args[n*cols:], b.rows-n
	}
	b.args = b.args[:0]
	return nil
}

// query is the statement of n rows in the dialect's words.
func (b *rowBatch) query(n int) string {
	return b.s.q(b.head + " VALUES " + repeated(b.row, n) + " " + b.tail)
}

// repeated is n copies of s separated by commas: a row's placeholders,
// or a statement's rows.
func repeated(s string, n int) string { return strings.TrimSuffix(strings.Repeat(s+", ", n), ", ") }

// chunkLen is how many of n items the next statement takes: the largest
// power of two that is at most n and at most limit, so that a handful of
// texts serve every count and stay prepared (stmtCache).
func chunkLen(n, limit int) int { return min(limit, 1<<(bits.Len(uint(n))-1)) }

// pgStatement is a statement and its arguments.
type pgStatement struct {
	query string
	args  []any
}

// flushPG writes the rows gathered in batches, a statement each, then
// runs after, in one round trip.
func (s *DB) flushPG(ctx context.Context, tx *sql.Tx, after []pgStatement, batches ...*rowBatch) error {
	var b pgx.Batch
	for _, rb := range batches {
		if rb.rows == 0 {
			continue
		}
		arrays, err := rb.arrays()
		if err != nil {
			return err
		}
		b.Queue(rb.unnest(), arrays...)
	}
	for _, st := range after {
		b.Queue(st.query, st.args...)
	}
	if b.Len() == 0 {
		return nil
	}
	return s.sendPG(ctx, tx, &b, nil)
}

// unnest is the batch's statement with its rows as one array a column:
// INSERT … SELECT * FROM unnest($1::type[], …) and the tail.
func (b *rowBatch) unnest() string {
	arrays := make([]string, len(b.types))
	for i, t := range b.types {
		arrays[i] = "$" + strconv.Itoa(i+1) + "::" + t + "[]"
	}
	return b.head + " SELECT * FROM unnest(" + strings.Join(arrays, ", ") + ") " + b.tail
}

// arrays are the rows gathered, an array a column: the unnest
// statement's arguments. It empties the batch.
func (b *rowBatch) arrays() ([]any, error) {
	out := make([]any, len(b.cols))
	var first error
	for i := range b.cols {
		text, err := b.cols[i].text()
		if first == nil {
			first = err
		}
		out[i] = text
	}
	b.rows = 0
	return out, first
}
