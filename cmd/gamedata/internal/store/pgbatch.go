package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL's writes through pgx's own interface. Through database/sql
// a PostgreSQL write cost a round trip a statement, and a batch of 128
// rows of 13 columns 1,664 arguments converted one by one: a
// 100,000-game run spent 6.8 s of 9.2 s in SaveEntries (issue 40). Here
// the rows of a statement go as one array a column, in binary, and the
// statements of a step as one pgx.Batch, a round trip, on the connection
// of the transaction database/sql began: the same transaction, the same
// rows.

// txConns are the connections of the write transactions under way, by
// transaction: the connection whose pgx.Conn a transaction's batches
// are sent on.
type txConns struct{ m sync.Map }

func (c *txConns) put(tx *sql.Tx, conn *sql.Conn) { c.m.Store(tx, conn) }
func (c *txConns) drop(tx *sql.Tx)                { c.m.Delete(tx) }

// errNoConn is a batch for a transaction that write did not begin.
var errNoConn = errors.New("store: a PostgreSQL batch needs a transaction of DB.write")

// sendPG sends b on tx's connection and reads its results through read,
// which may be nil; it returns the first error.
func (s *DB) sendPG(ctx context.Context, tx *sql.Tx, b *pgx.Batch, read func(pgx.BatchResults) error) error {
	c, ok := s.conns.m.Load(tx)
	if !ok {
		return errNoConn
	}
	return c.(*sql.Conn).Raw(func(dc any) error {
		res := dc.(*stdlib.Conn).Conn().SendBatch(ctx, b)
		if read != nil {
			if err := read(res); err != nil {
				res.Close()
				return err
			}
		}
		return res.Close()
	})
}

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
		if rb.rows > 0 {
			b.Queue(rb.unnest(), rb.columns()...)
		}
		rb.args, rb.rows = rb.args[:0], 0
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

// columns are the rows gathered as one slice a column, the unnest
// statement's arguments.
func (b *rowBatch) columns() []any {
	n := len(b.types)
	out := make([]any, n)
	for c := range n {
		col := make([]any, b.rows)
		for r := range col {
			col[r] = b.args[r*n+c]
		}
		out[c] = col
	}
	return out
}

// beforeSavePG is beforeSave in one round trip, after taking the write
// lock (SaveEntries's writeLocking): the next sequence number, the
// priors of entries, their keys as three arrays, and the series members.
func (s *DB) beforeSavePG(ctx context.Context, tx *sql.Tx, entries []Entry) (seq int64, before map[Key]prior, members map[string]bool, err error) {
	kinds, idents, ids := make([]string, len(entries)), make([]string, len(entries)), make([]string, len(entries))
	for i, e := range entries {
		k := cleanKey(e.Key)
		kinds[i], idents[i], ids[i] = k.Kind, k.Ident, k.ID
	}
	var b pgx.Batch
	b.Queue(lockQuery, lockKey1, lockKey2)
	b.Queue(nextSeqQuery)
	b.Queue(`WITH k (kind, ident, id) AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[])) `+s.priorsQuery(), kinds, idents, ids)
	b.Queue(seriesMembersQuery)
	before = make(map[Key]prior, len(entries))
	err = s.sendPG(ctx, tx, &b, func(res pgx.BatchResults) error {
		if _, err := res.Exec(); err != nil {
			return err
		}
		if err := res.QueryRow().Scan(&seq); err != nil {
			return err
		}
		if err := readRows(res, func(rows pgx.Rows) error { return scanPriors(rows, before) }); err != nil {
			return err
		}
		return readRows(res, func(rows pgx.Rows) (err error) {
			members, err = scanMembers(rows)
			return err
		})
	})
	return seq, before, members, err
}

// readRows reads the next result of res through scan.
func readRows(res pgx.BatchResults, scan func(pgx.Rows) error) error {
	rows, err := res.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	if err := scan(rows); err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}
