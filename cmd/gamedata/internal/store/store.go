// Package store keeps what gamedata sync collects in a SQL database: a
// SQLite file (the default, nothing to install) or PostgreSQL (with
// TimescaleDB hypertables when that extension is installed).
//
// Both databases get the same schema, migrated forward by version inside
// one write transaction, and the same writes. Every write is one
// transaction that also brings the run's row in the runs table up to
// date, so a process killed at any moment leaves a database that the next
// run completes. Times are Unix seconds (BIGINT) in every table, the one
// type SQLite, PostgreSQL, TimescaleDB and Grafana all read alike.
package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
)

// Key identifies a directory entry: a package by kind and ident, a
// dedicated server by id. An absent identifier is "".
type Key struct {
	Kind, Ident, ID string
}

// String names the entry for failures and errors: kind/ident, or server id.
func (k Key) String() string {
	if k.ID != "" {
		return "server " + k.ID
	}
	return k.Kind + "/" + k.Ident
}

// Entry is a directory entry as a run saw it.
type Entry struct {
	Key
	// Title is the title or name as sent, nil when the entry has none.
	Title *string
	// Players is the players metric, nil when null or absent.
	Players *float64
	// Raw is the entry as sent.
	Raw []byte
	// Values are the entry's numeric members by name: numbers, booleans
	// as 0 and 1, and nil for a member sent as null. They become the
	// directory_values series.
	Values map[string]*float64
	// Partial is true when the entry says its metrics have partial
	// coverage: its values are then lower bounds.
	Partial bool
	// ChangeKey changes whenever the entry says its record changed: its
	// updatedAt, or a digest of its bytes when it has none. Details are
	// due when it differs from the one their last fetch saw.
	ChangeKey string
}

// Due is an entry whose detail record is due, with the change key the
// fetch is answering.
type Due struct {
	Key
	ChangeKey string
}

// Detail is a detail record: a package (Key.Ident set) or a server
// (Key.ID set).
type Detail struct {
	Key
	// Title is a package's title or a server's name, nil when absent.
	Title *string
	// Players and MaxPlayers are nil when null or absent; MaxPlayers is
	// kept for servers only.
	Players, MaxPlayers *float64
	// Raw is the record as sent.
	Raw []byte
	// ChangeKey is the Due.ChangeKey the fetch answered.
	ChangeKey string
}

// HistoryRow is one entry of a package's analytics history.
type HistoryRow struct {
	CapturedAt time.Time
	Players    *float64
	Partial    bool
	Raw        []byte
}

// Point is one point of the platform's activity history.
type Point struct {
	Time                       time.Time
	Players                    *float64
	Average, Partial, Current  bool
	IntervalStart, IntervalEnd *time.Time
	Raw                        []byte
}

// Outcome is how a run ended.
type Outcome string

// The outcomes a run records. A run killed before it could record its end
// keeps OutcomeRunning and a NULL finished_at until a run that starts
// while no other is live records it as OutcomeAbandoned (BeginRun).
const (
	OutcomeRunning     Outcome = "running"
	OutcomeOK          Outcome = "ok"
	OutcomeFailed      Outcome = "failed"
	OutcomeInterrupted Outcome = "interrupted"
	OutcomeAbandoned   Outcome = "abandoned"
)

// Run is one run of sync, as the runs table records it. The caller sets
// Requests before each write; the write records it with its own rows.
type Run struct {
	ID        int64
	Kind      string
	StartedAt time.Time
	// Requests is the number of requests the run has made so far.
	Requests int64
	// BytesRead is the bytes of the responses the run has read so far,
	// nil when they are not counted (recorded as NULL).
	BytesRead *int64
	// Added and Changed count rows inserted and rows changed in place.
	Added, Changed int64
	// Failures counts the items recorded as failed.
	Failures int64

	// walkSeq is the sequence number of the walk's first page: an entry
	// last seen before it was not listed by this run's walk.
	walkSeq int64
}

// DB is an open database of either kind.
type DB struct {
	db   *sql.DB
	d    dialect
	conn dsn.DB
	// opened is set once Open has migrated the database: a server lost
	// after that is said to be lost during the run.
	opened bool
	stmts  stmtCache
	held   heldRuns
	conns  txConns
}

// heldRuns are the run locks of the runs a DB began and has not
// finished, which Close releases: a run whose database is closed will
// record nothing more.
type heldRuns struct {
	mu sync.Mutex
	m  map[*Run]func()
}

func (h *heldRuns) add(r *Run, release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[*Run]func(){}
	}
	h.m[r] = release
}

// release releases r's lock, if it holds one.
func (h *heldRuns) release(r *Run) {
	h.mu.Lock()
	release := h.m[r]
	delete(h.m, r)
	h.mu.Unlock()
	if release != nil {
		release()
	}
}

func (h *heldRuns) releaseAll() {
	h.mu.Lock()
	all := h.m
	h.m = nil
	h.mu.Unlock()
	for _, release := range all {
		release()
	}
}

// txConns are the connections of the write transactions under way, by
// transaction: the connection whose pgx.Conn a transaction's batches
// are sent on.
type txConns struct{ m sync.Map }

func (c *txConns) put(tx *sql.Tx, conn *sql.Conn) { c.m.Store(tx, conn) }
func (c *txConns) drop(tx *sql.Tx)                { c.m.Delete(tx) }

// explain is err said as an *Error that names the database.
func (s *DB) explain(err error) error { return explain(s.conn, err, s.opened) }

// Close closes the database. A run begun on it and not finished is over:
// its lock is released, and a later run records it as abandoned.
func (s *DB) Close() error {
	s.held.releaseAll()
	s.stmts.close()
	return s.db.Close()
}

// write runs f in a write transaction, which waits for any other writer
// to finish (BEGIN IMMEDIATE in SQLite, an advisory lock in PostgreSQL),
// so runs that overlap take turns per write and never interleave inside
// one.
func (s *DB) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	return s.writeLocking(ctx, true, f)
}

// writeLocking is write; with lock false, f's first statement must take
// the write lock itself (SaveEntries's on PostgreSQL, in the round trip
// of its first reads: beforeSavePG).
func (s *DB) writeLocking(ctx context.Context, lock bool, f func(tx *sql.Tx) error) error {
	err := s.transact(ctx, lock, f)
	s.stmts.keep(ctx, s.db)
	return s.explain(err)
}

// transact is write's transaction, its error as the driver says it. It
// is begun on a connection of its own, which PostgreSQL's batches reach
// (sendPG).
func (s *DB) transact(ctx context.Context, lock bool, f func(tx *sql.Tx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	s.conns.put(tx, conn)
	defer s.conns.drop(tx)
	if lock {
		if err := s.d.lockWrites(ctx, tx); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// q adapts a query written with ? placeholders to the dialect.
func (s *DB) q(query string) string { return s.d.rebind(query) }

// errNoRun is a write for a run that BeginRun did not return.
var errNoRun = errors.New("store: a write needs a run from BeginRun")

// unix is t in Unix seconds.
func unix(t time.Time) int64 { return t.Unix() }
