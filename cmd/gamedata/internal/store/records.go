package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// putter writes rows of one table by key: a new row is inserted, a row
// whose record as sent (raw) changed is updated, an unchanged one left
// as it is, so re-running over the same data writes nothing.
type putter struct {
	ins, upd *sql.Stmt
}

// putter prepares the statements for table, whose key columns are keys
// and whose other columns are cols, raw and synced_at.
func (s *DB) putter(ctx context.Context, tx *sql.Tx, table string, keys, cols []string) (*putter, error) {
	all := append(append(append([]string{}, keys...), cols...), "raw", "synced_at")
	ins, err := tx.PrepareContext(ctx, s.q(fmt.Sprintf(`INSERT INTO %s (%s) VALUES (%s) ON CONFLICT DO NOTHING`,
		table, strings.Join(all, ", "), repeated("?", len(all)))))
	if err != nil {
		return nil, err
	}
	set := append(append([]string{}, cols...), "raw", "synced_at")
	upd, err := tx.PrepareContext(ctx, s.q(fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ? AND raw <> ?`,
		table, strings.Join(set, " = ?, "), strings.Join(keys, " = ? AND "))))
	if err != nil {
		return nil, err
	}
	return &putter{ins, upd}, nil
}

// put writes one row and says whether it was inserted or changed.
func (p *putter) put(ctx context.Context, keyv, colv []any, raw string, at int64) (inserted, changed bool, err error) {
	res, err := p.ins.ExecContext(ctx, append(append(append([]any{}, keyv...), colv...), raw, at)...)
	if err != nil {
		return false, false, err
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return true, false, nil
	}
	res, err = p.upd.ExecContext(ctx, append(append(append(append([]any{}, colv...), raw, at), keyv...), raw)...)
	if err != nil {
		return false, false, err
	}
	n, _ := res.RowsAffected()
	return false, n > 0, nil
}

// rowCounts are the rows one write inserted and changed.
type rowCounts struct{ added, changed int64 }

// count adds one put's outcome.
func (c *rowCounts) count(inserted, changed bool) {
	if inserted {
		c.added++
	}
	if changed {
		c.changed++
	}
}

// writeRows runs f in a write transaction with counts of its own, brings
// the run's row up to date with them inside that transaction, and adds
// them to r once it has committed.
func (s *DB) writeRows(ctx context.Context, r *Run, f func(tx *sql.Tx, c *rowCounts) error) error {
	var c rowCounts
	err := s.write(ctx, func(tx *sql.Tx) error {
		c = rowCounts{}
		if err := f(tx, &c); err != nil {
			return err
		}
		return s.tally(ctx, tx, r, c.added, c.changed, 0)
	})
	if err == nil {
		r.Added += c.added
		r.Changed += c.changed
	}
	return err
}

// SaveDetails records detail records fetched for due entries, in one
// transaction: each into packages or servers, and its entry's
// details_at and details_key, so it is not due again until its change
// key changes or --details-every has passed.
func (s *DB) SaveDetails(ctx context.Context, r *Run, recs []Detail, at time.Time) error {
	if r == nil {
		return errNoRun
	}
	return s.writeRows(ctx, r, func(tx *sql.Tx, c *rowCounts) error {
		pkgs, err := s.putter(ctx, tx, "packages", []string{"kind", "ident"}, []string{"title", "players"})
		if err != nil {
			return err
		}
		srvs, err := s.putter(ctx, tx, "servers", []string{"id"}, []string{"name", "players", "max_players"})
		if err != nil {
			return err
		}
		for _, d := range recs {
			k := cleanKey(d.Key)
			var ins, chg bool
			if k.ID != "" {
				ins, chg, err = srvs.put(ctx, []any{k.ID}, []any{cleanPtr(d.Title), d.Players, d.MaxPlayers}, clean(string(d.Raw)), unix(at))
			} else {
				ins, chg, err = pkgs.put(ctx, []any{k.Kind, k.Ident}, []any{cleanPtr(d.Title), d.Players}, clean(string(d.Raw)), unix(at))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", d.Key, err)
			}
			c.count(ins, chg)
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE directory SET details_at = ?, details_key = ? WHERE kind = ? AND ident = ? AND id = ?`),
				unix(at), clean(d.ChangeKey), k.Kind, k.Ident, k.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// ErrRepeatedTime is the error of a report or an activity history with
// two entries in one second, which the schema keys by the second: the
// whole item is refused, so that neither entry is dropped without a word.
var ErrRepeatedTime = errors.New("two entries in one second, and the table is keyed by the second")

// repeatedSecond finds the first of rows whose time, to the second, an
// earlier row already has, and returns that second in RFC 3339.
func repeatedSecond[T any](rows []T, when func(T) time.Time) (string, bool) {
	seen := make(map[int64]bool, len(rows))
	for _, row := range rows {
		t := when(row)
		if seen[unix(t)] {
			return t.UTC().Format(time.RFC3339), true
		}
		seen[unix(t)] = true
	}
	return "", false
}

// SaveReport records the analytics history of one package, in one
// transaction, and its entry's report_at. History entries are keyed by
// capturedAt to the second; a report with two entries in one second is
// refused whole, so that neither is dropped without a word.
func (s *DB) SaveReport(ctx context.Context, r *Run, key Key, history []HistoryRow, at time.Time) error {
	if r == nil {
		return errNoRun
	}
	if t, ok := repeatedSecond(history, func(h HistoryRow) time.Time { return h.CapturedAt }); ok {
		return fmt.Errorf("%s: two history entries captured in the second %s: %w", key, t, ErrRepeatedTime)
	}
	k := cleanKey(key)
	return s.writeRows(ctx, r, func(tx *sql.Tx, c *rowCounts) error {
		p, err := s.putter(ctx, tx, "history", []string{"kind", "ident", "captured_at"}, []string{"players", "partial_coverage"})
		if err != nil {
			return err
		}
		for _, h := range history {
			ins, chg, err := p.put(ctx, []any{k.Kind, k.Ident, unix(h.CapturedAt)}, []any{h.Players, b2i(h.Partial)}, clean(string(h.Raw)), unix(at))
			if err != nil {
				return err
			}
			c.count(ins, chg)
		}
		_, err = tx.ExecContext(ctx, s.q(`UPDATE directory SET report_at = ? WHERE kind = ? AND ident = ? AND id = ?`),
			unix(at), k.Kind, k.Ident, k.ID)
		return err
	})
}

// SaveActivity records the platform's activity points, in one
// transaction. Points are keyed by their time to the second; two points
// in one second are refused, as in SaveReport. A point whose interval
// ends before it starts is kept as a snapshot at its time (average 0, no
// interval; raw keeps it as sent): its interval cannot be weighed, and
// would count negative time in platform_daily. A point before the prune
// watermark is not written: its periods are final, and a prune would
// only delete it again.
func (s *DB) SaveActivity(ctx context.Context, r *Run, points []Point, at time.Time) error {
	if r == nil {
		return errNoRun
	}
	points = weighable(points)
	if t, ok := repeatedSecond(points, func(p Point) time.Time { return p.Time }); ok {
		return fmt.Errorf("two activity points in the second %s: %w", t, ErrRepeatedTime)
	}
	return s.writeRows(ctx, r, func(tx *sql.Tx, c *rowCounts) error {
		if len(points) > 0 {
			from, to := span(points)
			if err := s.addDays(ctx, tx, from, to); err != nil {
				return err
			}
		}
		dirty, err := s.putPoints(ctx, tx, c, points, at)
		if err != nil || dirty < 0 {
			return err
		}
		return s.markPlatformDirty(ctx, tx, dirty)
	})
}

// weighable is points, each whose interval ends before it starts made a
// snapshot at its time (average 0, no interval).
func weighable(points []Point) []Point {
	points = slices.Clone(points)
	for i, p := range points {
		if p.IntervalStart != nil && p.IntervalEnd != nil && p.IntervalEnd.Before(*p.IntervalStart) {
			points[i].Average, points[i].IntervalStart, points[i].IntervalEnd = false, nil, nil
		}
	}
	return points
}

// putPoints writes the points not before the prune watermark in tx,
// counting them in c, and returns the earliest second a point that
// changed covers, which the platform's rollups roll again; -1 when none
// changed.
func (s *DB) putPoints(ctx context.Context, tx *sql.Tx, c *rowCounts, points []Point, at time.Time) (int64, error) {
	p, err := s.putter(ctx, tx, "activity_points", []string{"time"},
		[]string{"players", "average", "partial_coverage", "current", "interval_start", "interval_end"})
	if err != nil {
		return 0, err
	}
	pruned, err := s.pruned(ctx, tx)
	if err != nil {
		return 0, err
	}
	dirty := int64(-1)
	for _, pt := range points {
		if unix(pt.Time) < pruned {
			continue
		}
		ins, chg, err := p.put(ctx, []any{unix(pt.Time)},
			[]any{pt.Players, b2i(pt.Average), b2i(pt.Partial), b2i(pt.Current), unixPtr(pt.IntervalStart), unixPtr(pt.IntervalEnd)},
			clean(string(pt.Raw)), unix(at))
		if err != nil {
			return 0, err
		}
		c.count(ins, chg)
		if first, _ := span([]Point{pt}); (ins || chg) && (dirty < 0 || first < dirty) {
			dirty = first
		}
	}
	return dirty, nil
}

// span is the first and last second the points cover.
func span(points []Point) (from, to int64) {
	from, to = unix(points[0].Time), unix(points[0].Time)
	for _, p := range points {
		for _, t := range []*time.Time{&p.Time, p.IntervalStart, p.IntervalEnd} {
			if t != nil {
				from, to = min(from, unix(*t)), max(to, unix(*t))
			}
		}
	}
	return from, to
}

func unixPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return unix(*t)
}
