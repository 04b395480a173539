package store

import (
	"context"
	"database/sql"
	"time"
)

// PruneCounts say what a prune deleted, and the cut it kept to.
type PruneCounts struct {
	// Cut is the time before which raw rows were deleted: the one asked
	// for, or the end of the last day rolled up when that is earlier.
	Cut time.Time
	// Values and Points are the rows of directory_values and
	// activity_points deleted.
	Values, Points int64
	// HourlyCut is the start of the first UTC day whose hourly rollups
	// of entries were kept, zero when every one was kept; Hourly is the
	// rows of directory_rollups deleted before it.
	HourlyCut time.Time
	Hourly    int64
}

// Prune deletes the raw rows older than cut and, unless hourly is zero,
// the hourly rollups of entries older than hourly, in one transaction,
// so that a prune killed at any moment leaves the database as before or
// as after. First it rolls up every period that ended by the last run's
// start; the cut goes no later than the end of the last day rolled. Of
// each member of each entry it keeps the last row before the cut, and of
// the activity the last point before it, so that values still hold
// across the cut. The hourly cut goes no later than the raw cut, back to
// the start of its UTC day, so an hourly rollup is deleted only where
// its raw rows are gone and its day's rollup holds; the daily rollups of
// entries and every rollup of the platform are kept. The cut becomes the
// prune watermark: every rollup of a period that starts before it is
// final (rollup never rolls it again). The daily views read raw rows:
// after a prune, read the days before the cut from directory_rollups and
// platform_rollups.
func (s *DB) Prune(ctx context.Context, cut, hourly time.Time) (PruneCounts, error) {
	return s.prune(ctx, cut, hourly, func() {})
}

// prune is Prune, calling deleted inside the transaction once its
// deletes are done: the point at which the kill -9 test kills it.
func (s *DB) prune(ctx context.Context, cut, hourly time.Time, deleted func()) (PruneCounts, error) {
	var n PruneCounts
	err := s.write(ctx, func(tx *sql.Tx) error {
		n = PruneCounts{}
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(started_at) FROM runs`).Scan(&last); err != nil {
			return err
		}
		if !last.Valid {
			return nil // nothing recorded, nothing to prune
		}
		if err := s.rollup(ctx, tx, last.Int64, last.Int64); err != nil {
			return err
		}
		state, err := rollupState(ctx, tx)
		if err != nil {
			return err
		}
		c := min(unix(cut), state["day"])
		n.Cut = time.Unix(c, 0).UTC()
		res, err := tx.ExecContext(ctx, s.q(`DELETE FROM directory_values WHERE at < ? AND EXISTS (SELECT 1 FROM directory_values n
			WHERE n.kind = directory_values.kind AND n.ident = directory_values.ident AND n.id = directory_values.id
				AND n.member = directory_values.member AND n.at > directory_values.at AND n.at <= ?)`), c, c)
		if err != nil {
			return err
		}
		n.Values, _ = res.RowsAffected()
		res, err = tx.ExecContext(ctx, s.q(`DELETE FROM activity_points WHERE time < ? AND EXISTS (SELECT 1 FROM activity_points n
			WHERE n.time > activity_points.time AND n.time <= ?)`), c, c)
		if err != nil {
			return err
		}
		n.Points, _ = res.RowsAffected()
		if !hourly.IsZero() {
			h := min(unix(hourly), c)
			h -= (h%daySeconds + daySeconds) % daySeconds // down, before 1970 too
			res, err = tx.ExecContext(ctx, s.q(`DELETE FROM directory_rollups WHERE period = ? AND start_at < ?`), hourSeconds, h)
			if err != nil {
				return err
			}
			n.Hourly, _ = res.RowsAffected()
			n.HourlyCut = time.Unix(h, 0).UTC()
		}
		deleted()
		return s.setState(ctx, tx, "pruned", max(c, state["pruned"]))
	})
	return n, err
}
