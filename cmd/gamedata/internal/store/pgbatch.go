package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL's writes through pgx's own interface. Through database/sql
// a PostgreSQL write cost a round trip a statement, and a batch of 128
// rows of 13 columns 1,664 arguments converted one by one: a
// 100,000-game run spent 6.8 s of 9.2 s in SaveEntries (issue 40). Here
// the rows of a statement go as one array a column (pgarray.go), and the
// statements of a step as one pgx.Batch, a round trip, on the connection
// of the transaction database/sql began: the same transaction, the same
// rows.

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

// scannedRows are rows of database/sql or of pgx, read alike.
type scannedRows interface {
	Next() bool
	Scan(dest ...any) error
}
