package store

import (
	"context"
	"database/sql"
	"math"
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
// last rollup. No period that starts before the prune watermark is
// rolled again (openFrom). FinishRun calls it, and Prune; a run killed
// before it has its periods rolled by the next.
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
		from = max(min(from, changed-changed%p.period), openFrom(pruned, p.period))
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
		if err := s.rollPlatform(ctx, tx, from, pruned); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM rollup_state WHERE name = 'platform'`); err != nil {
			return err
		}
	}
	return nil
}

// openFrom is the start of the first period of length period that
// starts at or after the prune watermark pruned. A period that starts
// before it is final: a prune deleted some of its raw rows, so rolling
// it again would make it from what is left, and a rollup once final is
// never rewritten.
func openFrom(pruned, period int64) int64 {
	return pruned + (period-pruned%period)%period
}

// pruned is the prune watermark: raw rows before it were deleted, and
// the periods that start before it are final. It is math.MinInt64 on a
// database never pruned.
func (s *DB) pruned(ctx context.Context, tx *sql.Tx) (int64, error) {
	var v sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT MAX(value) FROM rollup_state WHERE name = 'pruned'`).Scan(&v)
	if !v.Valid {
		return math.MinInt64, err
	}
	return v.Int64, err
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
// does. The members are read keyChunk at a time, in one query, and the
// rollups written in multi-row statements: a query and an upsert per
// member were most of a run's time at 100,000 entries.
func (s *DB) rollDirectory(ctx context.Context, tx *sql.Tx, period, from, end int64) error {
	keys, err := changedKeys(ctx, tx, s, from, end)
	if err != nil {
		return err
	}
	upsert := s.newRowBatch(tx, `INSERT INTO directory_rollups
		(kind, ident, id, member, period, start_at, min_value, max_value, avg_value, covered_seconds, partial_coverage, last_value)`,
		[]string{"text", "text", "text", "text", "int8", "int8", "float8", "float8", "float8", "int8", "int4", "float8"},
		`ON CONFLICT (kind, ident, id, member, period, start_at) DO UPDATE SET
			min_value = excluded.min_value, max_value = excluded.max_value, avg_value = excluded.avg_value,
			covered_seconds = excluded.covered_seconds, partial_coverage = excluded.partial_coverage, last_value = excluded.last_value`)
	for len(keys) > 0 {
		chunk := keys[:s.keyChunk(len(keys))]
		keys = keys[len(chunk):]
		segs, err := s.chunkSegments(ctx, tx, chunk, period, from, end)
		if err != nil {
			return err
		}
		for i, k := range chunk {
			for _, p := range segs[i].starts {
				a := aggregate(segs[i].segs, p, p+period)
				if err := upsert.add(ctx, k.Kind, k.Ident, k.ID, k.member, period, p,
					a.min(), a.max(), a.avg(), a.seconds, b2i(a.partial), a.last); err != nil {
					return err
				}
			}
		}
	}
	return upsert.flush(ctx)
}

// keyChunk is how many of n members the next query of rollDirectory
// reads: in SQLite, whose list is parameters, at most 128, a power of
// two (chunkLen); on PostgreSQL, whose list is five arrays, up to 1,024.
// A list of 128 cost three times as much a member as one of thousands;
// at 4,096 the plans PostgreSQL makes for a statement's first runs,
// before it settles on a generic one, crossed jit_above_cost and hashed
// the whole of directory (118 ms against 77 ms for the same 4,096
// members at 100,000 games); at 1,024 every plan searches each key.
func (s *DB) keyChunk(n int) int {
	if s.d.name() == "postgres" {
		return min(n, 1024)
	}
	return chunkLen(n, 128)
}

// keyRows are a member's segments around a span, and the starts of the
// periods in the span that hold one of its rows.
type keyRows struct {
	segs   []segment
	starts []int64
}

// chunkSegments reads the rows of keys around [from, end) as segments,
// in one query: for each member, its rows from the last before from (or
// from) to the first at or after end (or end), and its entry's
// last_seen, which ends its last segment. The row before and the row
// after are read in the order of the table's key, not as MAX and MIN:
// PostgreSQL answered MIN(at) by walking the index on at from the end of
// the span, through every later row of every member, and its bounds are
// keyBound's for the same reason.
func (s *DB) chunkSegments(ctx context.Context, tx *sql.Tx, keys []seriesKey, period, from, end int64) ([]keyRows, error) {
	out := make([]keyRows, len(keys))
	seen := make([]int64, len(keys))
	read := func(rows scannedRows) error {
		for rows.Next() {
			var n int
			var at, last int64
			var v sql.NullFloat64
			var partial, listed int
			if err := rows.Scan(&n, &at, &v, &partial, &listed, &last); err != nil {
				return err
			}
			if n < 0 || n >= len(keys) {
				continue
			}
			seen[n] = last
			out[n].add(rowSegment(at, v, partial, listed), period, from, end)
		}
		return nil
	}
	query, args := s.segmentsStatement(keys, from, end)
	if err := s.readList(ctx, tx, query, args, read); err != nil {
		return nil, err
	}
	for i := range out {
		if m := len(out[i].segs); m > 0 {
			out[i].segs[m-1].end = max(seen[i], out[i].segs[m-1].start)
		}
	}
	return out, nil
}

// segmentsStatement is segmentsQuery over keys, and its arguments: the
// keys as parameters in SQLite, as five arrays on PostgreSQL.
func (s *DB) segmentsStatement(keys []seriesKey, from, end int64) (string, []any) {
	if s.d.name() == "postgres" {
		ns := make([]int32, len(keys))
		kinds, idents, ids, members := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
		for i, k := range keys {
			ns[i], kinds[i], idents[i], ids[i], members[i] = int32(i), k.Kind, k.Ident, k.ID, k.member
		}
		return s.q(s.segmentsQuery(`SELECT * FROM unnest(CAST(? AS INTEGER[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]))`)),
			[]any{ns, kinds, idents, ids, members, from, from, end, end}
	}
	args := make([]any, 0, 5*len(keys)+4)
	for i, k := range keys {
		args = append(args, i, k.Kind, k.Ident, k.ID, k.member)
	}
	return s.q(s.segmentsQuery(`VALUES ` + repeated("(CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT))", len(keys)))),
		append(args, from, from, end, end)
}

// rowSegment is the segment a row of directory_values at at begins: its
// value, unless it is null or the entry was not listed.
func rowSegment(at int64, v sql.NullFloat64, partial, listed int) segment {
	sg := segment{start: at, end: at, partial: partial == 1}
	if v.Valid && listed == 1 {
		f := v.Float64
		sg.value = &f
	}
	return sg
}

// add appends sg, which ends the segment before it, and notes the start
// of its period when it begins in [from, end).
func (k *keyRows) add(sg segment, period, from, end int64) {
	at := sg.start
	if m := len(k.segs); m > 0 {
		k.segs[m-1].end = at
	}
	k.segs = append(k.segs, sg)
	if p := at - at%period; at >= from && at < end && (len(k.starts) == 0 || k.starts[len(k.starts)-1] != p) {
		k.starts = append(k.starts, p)
	}
}

// segmentsQuery is chunkSegments's query for the members list, a query
// of their numbers and keys: their parameters, then from, from, end and
// end.
func (s *DB) segmentsQuery(list string) string {
	join, where := s.joinEach("directory_values", "v", "v.at, v.value, v.partial_coverage, v.listed",
		`v.kind = k.kind AND v.ident = k.ident AND v.id = k.id AND v.member = k.member
			AND v.at >= COALESCE((SELECT p.at FROM directory_values p
				WHERE p.kind = k.kind AND p.ident = k.ident AND p.id = k.id AND p.member = k.member AND `+s.keyBound("p", "<")+`
				ORDER BY p.kind DESC, p.ident DESC, p.id DESC, p.member DESC, p.at DESC LIMIT 1), ?)
			AND v.at <= COALESCE((SELECT a.at FROM directory_values a
				WHERE a.kind = k.kind AND a.ident = k.ident AND a.id = k.id AND a.member = k.member AND `+s.keyBound("a", ">=")+`
				ORDER BY a.kind, a.ident, a.id, a.member, a.at LIMIT 1), ?)`)
	return `WITH k (n, kind, ident, id, member) AS (` + list + `)
		SELECT k.n, v.at, v.value, v.partial_coverage, v.listed, COALESCE(d.last_seen, 0)
		FROM k ` + join + `
		LEFT JOIN directory d ON d.kind = k.kind AND d.ident = k.ident AND d.id = k.id
		WHERE ` + where + `
		ORDER BY k.n, v.at`
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
// the one holding from on, but for those that start before the prune
// watermark pruned, from the activity points as platform_segments reads
// them: an average point covers its interval, a snapshot holds until the
// next point.
func (s *DB) rollPlatform(ctx context.Context, tx *sql.Tx, from, pruned int64) error {
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
		first := max(from-from%period, openFrom(pruned, period))
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
