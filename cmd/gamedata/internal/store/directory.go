package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// EntryCounts say what saving a batch of entries found: entries never
// listed before (or listed again after they left), entries whose values
// changed, the series rows written, and the entries not stored.
type EntryCounts struct {
	New, Changed, Rows int
	Refused            []Refused
}

// series is an entry's values as last written to directory_values: what
// the next run compares with, kept in directory.series.
type series struct {
	Partial bool                `json:"p,omitempty"`
	Values  map[string]*float64 `json:"v"`
}

// prior is what the database holds of an entry before a write.
type prior struct {
	listed bool // false for an entry recorded as gone
	raw    string
	series string // as stored, encoded; "" when none was written, or the entry left
}

// last is the series last written, decoded: nil when none was written,
// the entry left, or what is stored does not decode.
func (p prior) last() *series {
	var st series
	if p.series == "" || json.Unmarshal([]byte(p.series), &st) != nil {
		return nil
	}
	return &st
}

// SaveEntries records a batch of directory entries the run listed, in
// one transaction: each entry's row in directory (its values, its change
// key, when it was seen) and, in directory_values at the run's time, a
// row for every member whose value differs from the last one written, so
// a run over unchanged entries adds no series row. An entry the database
// cannot keep as sent (a key or member name with a NUL byte or invalid
// UTF-8, or too long for an index) is not stored, and is returned in
// Refused, so that one odd entry never blocks a run nor merges with
// another.
func (s *DB) SaveEntries(ctx context.Context, r *Run, entries []Entry) (EntryCounts, error) {
	if r == nil {
		return EntryCounts{}, errNoRun
	}
	entries, refused := storableEntries(entries)
	keys := make([]Key, len(entries)) // as stored
	for i, e := range entries {
		keys[i] = cleanKey(e.Key)
	}
	var t saveTally
	var seq int64
	pg := s.d.name() == "postgres"
	// On PostgreSQL the lock is taken with the first reads, and the
	// tally written with the rows: a transaction of four round trips.
	err := s.writeLocking(ctx, !pg, func(tx *sql.Tx) (err error) {
		t = saveTally{}
		var before map[Key]prior
		var members map[string]bool
		if seq, before, members, err = s.beforeSave(ctx, tx, keys); err != nil {
			return err
		}
		w := s.entryWriter(tx, r, seq)
		w.members = members
		if err := s.addSeriesMembers(ctx, tx, w.members, entries); err != nil {
			return err
		}
		for i, e := range entries {
			p, known := before[keys[i]]
			raw := clean(string(e.Raw))
			rows, err := w.save(ctx, e, keys[i], raw, p)
			if err != nil {
				return err
			}
			t.add(p, known, raw, rows)
		}
		if pg {
			return s.flushPG(ctx, tx, []pgStatement{{s.q(tallyQuery), tallyArgs(r, t.added(), t.rewritten, int64(len(entries)))}},
				w.values.rowBatch, w.upsert)
		}
		if err := w.flush(ctx); err != nil {
			return err
		}
		return s.tally(ctx, tx, r, t.added(), t.rewritten, int64(len(entries)))
	})
	if err != nil {
		return EntryCounts{}, err
	}
	if r.walkSeq == 0 {
		r.walkSeq = seq
	}
	r.Added += t.added()
	r.Changed += t.rewritten
	t.Refused = refused
	return t.EntryCounts, nil
}

// storableEntries are entries without those the database cannot keep,
// and those as refused: entries itself when it has none, as most
// batches, not a copy.
func storableEntries(entries []Entry) ([]Entry, []Refused) {
	var keep []Entry
	var refused []Refused
	for i, e := range entries {
		if err := storable(e); err != nil {
			if refused == nil {
				keep = slices.Clone(entries[:i])
			}
			refused = append(refused, Refused{e.Key, err})
		} else if refused != nil {
			keep = append(keep, e)
		}
	}
	if refused == nil {
		return entries, nil
	}
	return keep, refused
}

const nextSeqQuery = `UPDATE sync_state SET value = value + 1 WHERE name = 'seq' RETURNING value`

// nextSeq takes the next number of the sequence that orders writes: the
// entries a walk's writes saw carry it, so those it did not see are found.
func nextSeq(ctx context.Context, tx *sql.Tx) (seq int64, err error) {
	err = tx.QueryRowContext(ctx, nextSeqQuery).Scan(&seq)
	return seq, err
}

// saveTally is what saving a batch counted: the caller's EntryCounts,
// and the directory rows inserted and rewritten, which the run's totals
// add.
type saveTally struct {
	EntryCounts
	inserted, rewritten int64
}

// add counts an entry whose prior is p (known: the database had a row of
// it), saved with raw bytes raw and rows series rows: an entry not listed
// before is new; a row whose bytes or listing changed is rewritten; an
// entry listed before whose values changed is changed.
func (t *saveTally) add(p prior, known bool, raw string, rows int) {
	switch {
	case !known:
		t.New++
		t.inserted++
	case !p.listed:
		t.New++
		t.rewritten++
	case p.raw != raw:
		t.rewritten++
	}
	if known && p.listed && rows > 0 {
		t.Changed++
	}
	t.Rows += rows
}

// added is the rows the batch added: series rows and new directory rows.
func (t *saveTally) added() int64 { return int64(t.Rows) + t.inserted }

// entryWriter writes entries of one run in one transaction: an entry's
// row in directory and its changed members in directory_values, both in
// multi-row statements.
type entryWriter struct {
	upsert  *rowBatch
	values  valueWriter
	run     *Run
	at, seq int64
	members map[string]bool // the members that are series
	pending map[Key]bool    // the entries of the rows not yet written
}

func (s *DB) entryWriter(tx *sql.Tx, r *Run, seq int64) entryWriter {
	upsert := s.newRowBatch(tx, `INSERT INTO directory
		(kind, ident, id, title, players, raw, synced_at, listing, first_seen, last_seen, seen_seq, change_key, series)`,
		[]string{"text", "text", "text", "text", "float8", "text", "int8", "text", "int8", "int8", "int8", "text", "text"},
		`ON CONFLICT (kind, ident, id) DO UPDATE SET
			title = excluded.title, players = excluded.players, raw = excluded.raw,
			synced_at = excluded.synced_at, listing = excluded.listing,
			last_seen = CASE WHEN directory.last_seen > excluded.last_seen THEN directory.last_seen ELSE excluded.last_seen END,
			seen_seq = excluded.seen_seq, gone_at = NULL,
			change_key = excluded.change_key, series = excluded.series`)
	return entryWriter{upsert: upsert, values: s.valueWriter(tx), run: r, at: unix(r.StartedAt), seq: seq,
		pending: map[Key]bool{}}
}

// save writes entry e, whose key and raw bytes as stored are k and raw
// and whose prior is p: a series row for each member that differs from p's series, then
// its directory row. It returns the series rows written. An entry listed
// twice in a batch is written twice, the later last, as one statement
// per row would.
func (w entryWriter) save(ctx context.Context, e Entry, k Key, raw string, p prior) (int, error) {
	if w.pending[k] {
		if err := w.flush(ctx); err != nil {
			return 0, err
		}
	}
	w.pending[k] = true
	now := series{Partial: e.Partial, Values: seriesValues(e.Values, w.members)}
	enc, err := json.Marshal(now)
	if err != nil {
		return 0, err
	}
	// The same encoding holds the same values: most entries of a run
	// are compared without decoding what the last one wrote.
	var rows []member
	if string(enc) != p.series {
		rows = diff(p.last(), now)
	}
	for _, m := range rows {
		if err := w.values.write(ctx, k, m, w.at, w.run.ID, now.Partial, true); err != nil {
			return 0, err
		}
	}
	err = w.upsert.add(ctx, k.Kind, k.Ident, k.ID, cleanPtr(e.Title), e.Players, raw,
		w.at, w.run.Kind, w.at, w.at, w.seq, clean(e.ChangeKey), string(enc))
	return len(rows), err
}

// flush writes the rows gathered; on PostgreSQL both statements in one
// round trip.
func (w entryWriter) flush(ctx context.Context) error {
	clear(w.pending)
	if s := w.upsert.s; s.d.name() == "postgres" {
		return s.flushPG(ctx, w.upsert.tx, nil, w.values.rowBatch, w.upsert)
	}
	if err := w.values.flush(ctx); err != nil {
		return err
	}
	return w.upsert.flush(ctx)
}

// beforeSave reads what SaveEntries compares with, after taking the next
// number of the write sequence: the priors of entries and the members
// that are series, by their keys as stored. On PostgreSQL the three are
// one round trip (beforeSavePG).
func (s *DB) beforeSave(ctx context.Context, tx *sql.Tx, keys []Key) (seq int64, before map[Key]prior, members map[string]bool, err error) {
	if s.d.name() == "postgres" {
		return s.beforeSavePG(ctx, tx, keys)
	}
	if seq, err = nextSeq(ctx, tx); err != nil {
		return 0, nil, nil, err
	}
	if before, err = s.priors(ctx, tx, keys); err != nil {
		return 0, nil, nil, err
	}
	members, err = s.seriesMembers(ctx, tx)
	return seq, before, members, err
}

// priors reads what the database holds of entries in SQLite (on
// PostgreSQL, beforeSavePG): their raw bytes and last series, or no
// series for an entry that left.
func (s *DB) priors(ctx context.Context, tx *sql.Tx, keys []Key) (map[Key]prior, error) {
	out := make(map[Key]prior, len(keys))
	for len(keys) > 0 {
		chunk := keys[:chunkLen(len(keys), batchRows)]
		keys = keys[len(chunk):]
		args := make([]any, 0, 3*len(chunk))
		for _, k := range chunk {
			args = append(args, k.Kind, k.Ident, k.ID)
		}
		q := `WITH k (kind, ident, id) AS (VALUES ` +
			repeated("(CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT))", len(chunk)) + `) ` + s.priorsQuery()
		if err := s.readList(ctx, tx, s.q(q), args, func(rows scannedRows) error { return scanPriors(rows, out) }); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// priorsQuery is the read of priors after the list of keys k.
func (s *DB) priorsQuery() string {
	join, where := s.joinEach("directory", "d", "d.kind, d.ident, d.id, d.raw, d.series, d.gone_at",
		"d.kind = k.kind AND d.ident = k.ident AND d.id = k.id")
	return `SELECT d.kind, d.ident, d.id, d.raw, d.series, d.gone_at FROM k ` + join + ` WHERE ` + where
}

// scanPriors reads the rows of priorsQuery into out.
func scanPriors(rows scannedRows, out map[Key]prior) error {
	for rows.Next() {
		var k Key
		var raw string
		var enc sql.NullString
		var gone sql.NullInt64
		if err := rows.Scan(&k.Kind, &k.Ident, &k.ID, &raw, &enc, &gone); err != nil {
			return err
		}
		p := prior{listed: !gone.Valid, raw: raw}
		if p.listed {
			p.series = enc.String
		}
		out[k] = p
	}
	return nil
}

// beforeSavePG is beforeSave in one round trip, after taking the write
// lock (SaveEntries's writeLocking): the next sequence number, the
// priors of keys, as three arrays, and the series members.
func (s *DB) beforeSavePG(ctx context.Context, tx *sql.Tx, keys []Key) (seq int64, before map[Key]prior, members map[string]bool, err error) {
	kinds, idents, ids := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		kinds[i], idents[i], ids[i] = k.Kind, k.Ident, k.ID
	}
	var b pgx.Batch
	b.Queue(lockQuery, lockKey1, lockKey2)
	b.Queue(nextSeqQuery)
	b.Queue(`WITH k (kind, ident, id) AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[])) `+s.priorsQuery(), kinds, idents, ids)
	b.Queue(seriesMembersQuery)
	before = make(map[Key]prior, len(keys))
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

// member is one series value to write.
type member struct {
	name  string
	value *float64
}

// diff is the members whose value differs between the series last
// written (nil: none) and now, in name order: a member now absent is
// written as NULL (unavailable), and a change of the partial-coverage
// flag rewrites every member that has a value: a null stays a null,
// whatever the coverage.
func diff(before *series, now series) []member {
	var out []member
	for name, v := range now.Values {
		if before != nil {
			if old, ok := before.Values[name]; ok && sameValue(old, v) && (before.Partial == now.Partial || v == nil) {
				continue
			}
		}
		out = append(out, member{name, v})
	}
	if before != nil {
		for name, old := range before.Values {
			if _, ok := now.Values[name]; !ok && old != nil {
				out = append(out, member{name, nil})
			}
		}
	}
	slices.SortFunc(out, func(a, b member) int { return strings.Compare(a.name, b.name) })
	return out
}

func sameValue(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// valueWriter writes rows of directory_values, in multi-row
// statements: flush writes the last. Two writes of one member at the
// same second (two runs started in the same second) keep the later value.
type valueWriter struct{ *rowBatch }

func (s *DB) valueWriter(tx *sql.Tx) valueWriter {
	return valueWriter{s.newRowBatch(tx, `INSERT INTO directory_values
		(kind, ident, id, member, at, run_id, value, partial_coverage, listed)`,
		[]string{"text", "text", "text", "text", "int8", "int8", "float8", "int4", "int4"},
		`ON CONFLICT (kind, ident, id, member, at) DO UPDATE SET
			run_id = excluded.run_id, value = excluded.value,
			partial_coverage = excluded.partial_coverage, listed = excluded.listed`)}
}

func (w valueWriter) write(ctx context.Context, k Key, m member, at, run int64, partial, listed bool) error {
	return w.add(ctx, k.Kind, k.Ident, k.ID, clean(m.name), at, run, m.value, b2i(partial), b2i(listed))
}

// EndWalk records that the run's walk listed the whole directory: every
// entry of the run's listing that the walk did not see is recorded as
// gone at the run's time (its row in directory gets gone_at, and each of
// its members a row in directory_values with listed = 0), in batches of
// a transaction each. Call it only after a walk that ended on the last
// page: a cut walk says nothing about the entries it did not reach.
func (s *DB) EndWalk(ctx context.Context, r *Run) (gone int, err error) {
	if r == nil {
		return 0, errNoRun
	}
	for {
		n, err := s.endWalkBatch(ctx, r)
		if err != nil {
			return gone, err
		}
		gone += n
		if n < goneBatch {
			return gone, nil
		}
	}
}

// goneBatch is how many entries that left one EndWalk transaction
// records.
const goneBatch = 100

// endWalkBatch records up to goneBatch entries of r's listing that the
// walk did not see as gone, in one transaction, and returns how many; a
// short batch is the last, and marks r's directory complete.
func (s *DB) endWalkBatch(ctx context.Context, r *Run) (int, error) {
	n, rows := 0, 0
	walkSeq := r.walkSeq
	at := unix(r.StartedAt)
	err := s.write(ctx, func(tx *sql.Tx) (err error) {
		n, rows = 0, 0
		if walkSeq == 0 { // the walk listed nothing: everything before now left
			if walkSeq, err = nextSeq(ctx, tx); err != nil {
				return err
			}
		}
		left, err := s.left(ctx, tx, r.Kind, walkSeq, goneBatch)
		if err != nil {
			return err
		}
		values := s.valueWriter(tx)
		for _, l := range left {
			written, err := s.markGone(ctx, tx, values, l, at, r.ID)
			if err != nil {
				return err
			}
			rows += written
		}
		if err := values.flush(ctx); err != nil {
			return err
		}
		n = len(left)
		if n < goneBatch {
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE runs SET directory_complete = 1 WHERE run_id = ?`), r.ID); err != nil {
				return err
			}
		}
		return s.tally(ctx, tx, r, int64(rows), int64(n), 0)
	})
	if err != nil {
		return 0, err
	}
	r.walkSeq = walkSeq
	r.Added += int64(rows)
	r.Changed += int64(n)
	return n, nil
}

// markGone records entry l as gone at the time at of run: a NULL, not
// listed, row for each of its members, in name order, and gone_at on its
// directory row. It returns the series rows written.
func (s *DB) markGone(ctx context.Context, tx *sql.Tx, values valueWriter, l leaving, at, run int64) (int, error) {
	names := make([]string, 0, len(l.series.Values))
	for name := range l.series.Values {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := values.write(ctx, l.key, member{name: name}, at, run, false, false); err != nil {
			return 0, err
		}
	}
	_, err := tx.ExecContext(ctx, s.q(`UPDATE directory SET gone_at = ?, series = NULL WHERE kind = ? AND ident = ? AND id = ?`),
		at, l.key.Kind, l.key.Ident, l.key.ID)
	return len(names), err
}

// leaving is an entry the walk did not list.
type leaving struct {
	key    Key
	series series
}

func (s *DB) left(ctx context.Context, tx *sql.Tx, listing string, walkSeq int64, limit int) ([]leaving, error) {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT kind, ident, id, series FROM directory
		WHERE listing = ? AND gone_at IS NULL AND seen_seq < ?
		ORDER BY kind, ident, id LIMIT ?`), listing, walkSeq, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []leaving
	for rows.Next() {
		var l leaving
		var enc sql.NullString
		if err := rows.Scan(&l.key.Kind, &l.key.Ident, &l.key.ID, &enc); err != nil {
			return nil, err
		}
		if enc.Valid {
			json.Unmarshal([]byte(enc.String), &l.series) // a series that does not decode has no member to close
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// cleanKey is k as stored.
func cleanKey(k Key) Key {
	return Key{Kind: clean(k.Kind), Ident: clean(k.Ident), ID: clean(k.ID)}
}
