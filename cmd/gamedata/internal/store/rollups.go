package store

import (
	"context"
	"database/sql"
)

// The rollups' periods, in seconds.
const (
	hourSeconds = 3600
	daySeconds  = 86400
)

// rollup brings the rollup tables up to upTo: every hour and day that
// ended by then and holds a change of an entry's member, again from the
// period holding changed on (a run's rows are at its start: a run that
// started before the last rollup brings late values), and the platform's
// hours and days from the earliest activity point that changed since the
// last rollup. FinishRun calls it, and Prune; a run killed before it has
// its periods rolled by the next.
func (s *DB) rollup(ctx context.Context, tx *sql.Tx, upTo, changed int64) error {
	state, err := rollupState(ctx, tx)
	if err != nil {
		return err
	}
	pruned := state["pruned"]
	for _, p := range []struct {
		name   string
		period int64
	}{{"hour", hourSeconds}, {"day", daySeconds}} {
		// The periods up to the last rollup's end are rolled again from a
		// late value's on; from there, up to upTo's.
		end := max(upTo-upTo%p.period, state[p.name])
		from, ok := state[p.name]
		if !ok {
			var first sql.NullInt64
			if err := tx.QueryRowContext(ctx, `SELECT MIN(at) FROM directory_values`).Scan(&first); err != nil {
				return err
			}
			from = end
			if first.Valid {
				from = first.Int64 - first.Int64%p.period
			}
		}
		from = max(min(from, changed-changed%p.period), pruned)
		if from < end {
			if err := s.rollDirectory(ctx, tx, p.period, from, end); err != nil {
				return err
			}
		}
		if err := s.setState(ctx, tx, p.name, end); err != nil {
			return err
		}
	}
	if dirty, ok := state["platform"]; ok {
		// A new point also ends the snapshot before it, whose segment may
		// reach back into the day before.
		from := max(dirty-dirty%daySeconds-daySeconds, pruned)
		if err := s.rollPlatform(ctx, tx, from); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rollup_state WHERE name = 'platform'`); err != nil {
			return err
		}
	}
	return nil
}

func rollupState(ctx context.Context, tx *sql.Tx) (map[string]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name, value FROM rollup_state`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var name string
		var v int64
		if err := rows.Scan(&name, &v); err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, rows.Err()
}

func (s *DB) setState(ctx context.Context, tx *sql.Tx, name string, v int64) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO rollup_state (name, value) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`), name, v)
	return err
}

// markPlatformDirty records that activity points from the time at on
// changed, for the next rollup.
func (s *DB) markPlatformDirty(ctx context.Context, tx *sql.Tx, at int64) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO rollup_state (name, value) VALUES ('platform', ?)
		ON CONFLICT (name) DO UPDATE SET value = CASE WHEN excluded.value < rollup_state.value THEN excluded.value ELSE rollup_state.value END`), at)
	return err
}

// rollDirectory writes the rollups of period for the periods in
// [from, end) that hold a change of a member: each member with a row in
// them, read with the row before and the row after (or its entry's
// last_seen), which bound its values' segments as directory_segments
// does.
func (s *DB) rollDirectory(ctx context.Context, tx *sql.Tx, period, from, end int64) error {
	keys, err := changedKeys(ctx, tx, s, from, end)
	if err != nil {
		return err
	}
	rowsStmt, err := tx.PrepareContext(ctx, s.q(`SELECT at, value, partial_coverage, listed FROM directory_values
		WHERE kind = ? AND ident = ? AND id = ? AND member = ?
			AND at >= COALESCE((SELECT MAX(at) FROM directory_values WHERE kind = ? AND ident = ? AND id = ? AND member = ? AND at < ?), ?)
			AND at <= COALESCE((SELECT MIN(at) FROM directory_values WHERE kind = ? AND ident = ? AND id = ? AND member = ? AND at >= ?), ?)
		ORDER BY at`))
	if err != nil {
		return err
	}
	seenStmt, err := tx.PrepareContext(ctx, s.q(`SELECT last_seen FROM directory WHERE kind = ? AND ident = ? AND id = ?`))
	if err != nil {
		return err
	}
	upsert, err := tx.PrepareContext(ctx, s.q(`INSERT INTO directory_rollups
		(kind, ident, id, member, period, start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage, last_value)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (kind, ident, id, member, period, start_at) DO UPDATE SET
			min_value = excluded.min_value, max_value = excluded.max_value, avg_value = excluded.avg_value,
			covered_seconds = excluded.covered_seconds, partial_coverage = excluded.partial_coverage, last_value = excluded.last_value`))
	if err != nil {
		return err
	}
	for _, k := range keys {
		segs, starts, err := keySegments(ctx, rowsStmt, seenStmt, k, period, from, end)
		if err != nil {
			return err
		}
		for _, p := range starts {
			a := aggregate(segs, p, p+period)
			if _, err := upsert.ExecContext(ctx, k.Kind, k.Ident, k.ID, k.member, period, p,
				a.min(), a.max(), a.avg(), a.seconds, b2i(a.partial), a.last); err != nil {
				return err
			}
		}
	}
	return nil
}

// seriesKey is a member of an entry.
type seriesKey struct {
	Key
	member string
}

func changedKeys(ctx context.Context, tx *sql.Tx, s *DB, from, end int64) ([]seriesKey, error) {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT DISTINCT kind, ident, id, member FROM directory_values WHERE at >= ? AND at < ?`), from, end)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []seriesKey
	for rows.Next() {
		var k seriesKey
		if err := rows.Scan(&k.Kind, &k.Ident, &k.ID, &k.member); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// segment is a value and the seconds [start, end) it held; a nil value
// held nothing (unavailable, or the entry was not listed).
type segment struct {
	start, end int64
	value      *float64
	partial    bool
}

// keySegments reads k's rows around [from, end) as segments, and the
// starts of the periods in it that hold one of its rows.
func keySegments(ctx context.Context, rowsStmt, seenStmt *sql.Stmt, k seriesKey, period, from, end int64) ([]segment, []int64, error) {
	rows, err := rowsStmt.QueryContext(ctx, k.Kind, k.Ident, k.ID, k.member, k.Kind, k.Ident, k.ID, k.member, from, from,
		k.Kind, k.Ident, k.ID, k.member, end, end)
	if err != nil {
		return nil, nil, err
	}
	var segs []segment
	var starts []int64
	for rows.Next() {
		var at int64
		var v sql.NullFloat64
		var partial, listed int
		if err := rows.Scan(&at, &v, &partial, &listed); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if n := len(segs); n > 0 {
			segs[n-1].end = at
		}
		sg := segment{start: at, end: at, partial: partial == 1}
		if v.Valid && listed == 1 {
			f := v.Float64
			sg.value = &f
		}
		segs = append(segs, sg)
		if p := at - at%period; at >= from && at < end && (len(starts) == 0 || starts[len(starts)-1] != p) {
			starts = append(starts, p)
		}
	}
	if err := rows.Close(); err != nil {
		return nil, nil, err
	}
	if n := len(segs); n > 0 {
		var seen int64
		if err := seenStmt.QueryRowContext(ctx, k.Kind, k.Ident, k.ID).Scan(&seen); err != nil && err != sql.ErrNoRows {
			return nil, nil, err
		}
		segs[n-1].end = max(seen, segs[n-1].start)
	}
	return segs, starts, nil
}

// rollup is the aggregate of a period: the extremes, the time-weighted
// sum and the seconds its values cover, the instants (segments of no
// length) for a period that has only those, and the value held at its
// end.
type rollup struct {
	lo, hi, weighted float64
	seconds          int64
	instants         int
	instantSum       float64
	partial, valued  bool
	last             *float64
}

// aggregate is the rollup of segs over [start, end), as the daily views
// compute a day: a segment that overlaps it weighs the seconds it holds
// there; one of no length counts where it lies, with no weight.
func aggregate(segs []segment, start, end int64) rollup {
	var a rollup
	for _, g := range segs {
		if g.start < end {
			a.last = g.value
		}
		if g.value == nil {
			continue
		}
		instant := g.start == g.end && g.start >= start && g.start < end
		if !instant && !(g.start < end && g.end > start) {
			continue
		}
		v := *g.value
		if !a.valued {
			a.lo, a.hi = v, v
		}
		a.valued = true
		a.lo, a.hi = min(a.lo, v), max(a.hi, v)
		a.partial = a.partial || g.partial
		secs := min(g.end, end) - max(g.start, start)
		if instant {
			secs = 0
		}
		a.seconds += secs
		a.weighted += v * float64(secs)
		a.instants++
		a.instantSum += v
	}
	return a
}

func (a rollup) min() any {
	if !a.valued {
		return nil
	}
	return a.lo
}

func (a rollup) max() any {
	if !a.valued {
		return nil
	}
	return a.hi
}

// avg is time-weighted; over instants only, their plain average.
func (a rollup) avg() any {
	switch {
	case !a.valued:
		return nil
	case a.seconds > 0:
		return a.weighted / float64(a.seconds)
	}
	return a.instantSum / float64(a.instants)
}

// rollPlatform rewrites the platform's rollups of every hour and day from
// the one holding from on, from the activity points as platform_segments
// reads them: an average point covers its interval, a snapshot holds
// until the next point.
func (s *DB) rollPlatform(ctx context.Context, tx *sql.Tx, from int64) error {
	rows, err := tx.QueryContext(ctx, s.q(`SELECT time, players, partial_coverage, interval_start, interval_end FROM activity_points
		WHERE time >= COALESCE((SELECT MAX(time) FROM activity_points WHERE time < ?), ?) ORDER BY time`), from, from)
	if err != nil {
		return err
	}
	var segs []segment
	open := false // the last segment ends at the next point's time
	for rows.Next() {
		var t int64
		var v sql.NullFloat64
		var partial int
		var is, ie sql.NullInt64
		if err := rows.Scan(&t, &v, &partial, &is, &ie); err != nil {
			rows.Close()
			return err
		}
		if open {
			segs[len(segs)-1].end = t
		}
		g := segment{start: t, end: t, partial: partial == 1}
		if is.Valid {
			g.start = is.Int64
		}
		if ie.Valid {
			g.end = ie.Int64
		}
		if v.Valid {
			f := v.Float64
			g.value = &f
		}
		segs = append(segs, g)
		open = !ie.Valid
	}
	if err := rows.Close(); err != nil {
		return err
	}
	var last int64
	for _, g := range segs {
		last = max(last, g.end)
	}
	for _, period := range []int64{hourSeconds, daySeconds} {
		first := from - from%period
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM platform_rollups WHERE period = ? AND start_at >= ?`), period, first); err != nil {
			return err
		}
		for p := first; p <= last; p += period {
			a := aggregate(segs, p, p+period)
			if !a.valued {
				continue
			}
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO platform_rollups
				(period, start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage) VALUES (?, ?, ?, ?, ?, ?, ?)`),
				period, p, a.min(), a.max(), a.avg(), a.seconds, b2i(a.partial)); err != nil {
				return err
			}
		}
	}
	return nil
}
