package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
)

// EntryCounts say what saving a batch of entries found: entries never
// listed before (or listed again after they left), entries whose values
// changed, and the series rows written.
type EntryCounts struct {
	New, Changed, Rows int
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
	series *series // nil when none was written, or the entry left
}

// SaveEntries records a batch of directory entries the run listed, in
// one transaction: each entry's row in directory (its values, its change
// key, when it was seen) and, in directory_values at the run's time, a
// row for every member whose value differs from the last one written, so
// a run over unchanged entries adds no series row.
func (s *DB) SaveEntries(ctx context.Context, r *Run, entries []Entry) (EntryCounts, error) {
	if r == nil {
		return EntryCounts{}, errNoRun
	}
	var c EntryCounts
	var seq, inserted, changedRows int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		c, inserted, changedRows = EntryCounts{}, 0, 0
		if err := tx.QueryRowContext(ctx, `UPDATE sync_state SET value = value + 1 WHERE name = 'seq' RETURNING value`).Scan(&seq); err != nil {
			return err
		}
		before, err := s.priors(ctx, tx, entries)
		if err != nil {
			return err
		}
		upsert, err := tx.PrepareContext(ctx, s.q(`INSERT INTO directory
			(kind, ident, id, title, players, raw, synced_at, listing, first_seen, last_seen, seen_seq, change_key, series)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (kind, ident, id) DO UPDATE SET
				title = excluded.title, players = excluded.players, raw = excluded.raw,
				synced_at = excluded.synced_at, listing = excluded.listing,
				last_seen = CASE WHEN directory.last_seen > excluded.last_seen THEN directory.last_seen ELSE excluded.last_seen END,
				seen_seq = excluded.seen_seq, gone_at = NULL,
				change_key = excluded.change_key, series = excluded.series`))
		if err != nil {
			return err
		}
		values, err := s.valueWriter(ctx, tx)
		if err != nil {
			return err
		}
		at := unix(r.StartedAt)
		for _, e := range entries {
			k := cleanKey(e.Key)
			p, known := before[k]
			now := series{Partial: e.Partial, Values: e.Values}
			if now.Values == nil {
				now.Values = map[string]*float64{}
			}
			switch {
			case !known:
				c.New++
				inserted++
			case !p.listed:
				c.New++
				changedRows++
			case p.raw != clean(string(e.Raw)):
				changedRows++
			}
			rows := diff(p.series, now)
			if known && p.listed && len(rows) > 0 {
				c.Changed++
			}
			for _, m := range rows {
				if err := values.write(ctx, k, m, at, r.ID, now.Partial, true); err != nil {
					return err
				}
			}
			c.Rows += len(rows)
			enc, err := json.Marshal(now)
			if err != nil {
				return err
			}
			if _, err := upsert.ExecContext(ctx, k.Kind, k.Ident, k.ID, cleanPtr(e.Title), e.Players, clean(string(e.Raw)),
				at, r.Kind, at, at, seq, clean(e.ChangeKey), string(enc)); err != nil {
				return err
			}
		}
		return s.tally(ctx, tx, r, int64(c.Rows)+inserted, changedRows, int64(len(entries)))
	})
	if err != nil {
		return EntryCounts{}, err
	}
	if r.walkSeq == 0 {
		r.walkSeq = seq
	}
	r.Added += int64(c.Rows) + inserted
	r.Changed += changedRows
	return c, nil
}

// priors reads what the database holds of entries: their raw bytes and
// last series, or no series for an entry that left.
func (s *DB) priors(ctx context.Context, tx *sql.Tx, entries []Entry) (map[Key]prior, error) {
	out := make(map[Key]prior, len(entries))
	for chunk := range slices.Chunk(entries, 200) {
		args := make([]any, 0, 3*len(chunk))
		for _, e := range chunk {
			k := cleanKey(e.Key)
			args = append(args, k.Kind, k.Ident, k.ID)
		}
		q := `SELECT kind, ident, id, raw, series, gone_at FROM directory WHERE (kind, ident, id) IN (VALUES ` +
			strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(chunk)), ", ") + `)`
		rows, err := tx.QueryContext(ctx, s.q(q), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k Key
			var raw string
			var enc sql.NullString
			var gone sql.NullInt64
			if err := rows.Scan(&k.Kind, &k.Ident, &k.ID, &raw, &enc, &gone); err != nil {
				rows.Close()
				return nil, err
			}
			p := prior{listed: !gone.Valid, raw: raw}
			if p.listed && enc.Valid {
				var st series
				if err := json.Unmarshal([]byte(enc.String), &st); err == nil {
					p.series = &st
				}
			}
			out[k] = p
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// member is one series value to write.
type member struct {
	name  string
	value *float64
}

// diff is the members whose value differs between the series last
// written (nil: none) and now, in name order: a member now absent is
// written as NULL (unavailable), and a change of the partial-coverage
// flag rewrites every member.
func diff(before *series, now series) []member {
	var out []member
	for name, v := range now.Values {
		if before != nil && before.Partial == now.Partial {
			if old, ok := before.Values[name]; ok && sameValue(old, v) {
				continue
			}
		}
		out = append(out, member{name, v})
	}
	if before != nil {
		for name, old := range before.Values {
			if _, ok := now.Values[name]; !ok && (old != nil || before.Partial != now.Partial) {
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

// valueWriter writes rows of directory_values. Two writes of one member
// at the same second (two runs started in the same second) keep the
// later value.
type valueWriter struct{ stmt *sql.Stmt }

func (s *DB) valueWriter(ctx context.Context, tx *sql.Tx) (valueWriter, error) {
	stmt, err := tx.PrepareContext(ctx, s.q(`INSERT INTO directory_values
		(kind, ident, id, member, at, run_id, value, partial_coverage, listed)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, ident, id, member, at) DO UPDATE SET
			run_id = excluded.run_id, value = excluded.value,
			partial_coverage = excluded.partial_coverage, listed = excluded.listed`))
	return valueWriter{stmt}, err
}

func (w valueWriter) write(ctx context.Context, k Key, m member, at, run int64, partial, listed bool) error {
	_, err := w.stmt.ExecContext(ctx, k.Kind, k.Ident, k.ID, clean(m.name), at, run, m.value, b2i(partial), b2i(listed))
	return err
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
	const batch = 100
	at := unix(r.StartedAt)
	for {
		n, rows := 0, 0
		walkSeq := r.walkSeq
		err := s.write(ctx, func(tx *sql.Tx) error {
			n, rows = 0, 0
			if walkSeq == 0 { // the walk listed nothing: everything before now left
				if err := tx.QueryRowContext(ctx, `UPDATE sync_state SET value = value + 1 WHERE name = 'seq' RETURNING value`).Scan(&walkSeq); err != nil {
					return err
				}
			}
			left, err := s.left(ctx, tx, r.Kind, walkSeq, batch)
			if err != nil {
				return err
			}
			values, err := s.valueWriter(ctx, tx)
			if err != nil {
				return err
			}
			for _, l := range left {
				names := make([]string, 0, len(l.series.Values))
				for name := range l.series.Values {
					names = append(names, name)
				}
				slices.Sort(names)
				for _, name := range names {
					if err := values.write(ctx, l.key, member{name: name}, at, r.ID, false, false); err != nil {
						return err
					}
				}
				rows += len(names)
				if _, err := tx.ExecContext(ctx, s.q(`UPDATE directory SET gone_at = ?, series = NULL WHERE kind = ? AND ident = ? AND id = ?`),
					at, l.key.Kind, l.key.Ident, l.key.ID); err != nil {
					return err
				}
			}
			n = len(left)
			if n < batch {
				if _, err := tx.ExecContext(ctx, s.q(`UPDATE runs SET directory_complete = 1 WHERE run_id = ?`), r.ID); err != nil {
					return err
				}
			}
			return s.tally(ctx, tx, r, int64(rows), int64(n), 0)
		})
		if err != nil {
			return gone, err
		}
		r.walkSeq = walkSeq
		r.Added += int64(rows)
		r.Changed += int64(n)
		gone += n
		if n < batch {
			return gone, nil
		}
	}
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
