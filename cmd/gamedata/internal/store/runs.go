package store

import (
	"context"
	"database/sql"
	"time"
)

// BeginRun records the start of a run that walks the directory of kind
// (the listing its entries are counted in) at the time at, to the second.
// The run holds a share of the database's run lock until FinishRun or
// Close (runlock.go). When no other run holds it, every run still
// recorded as running died without recording its end, and is recorded
// as OutcomeAbandoned, ended by at.
func (s *DB) BeginRun(ctx context.Context, kind string, at time.Time) (*Run, error) {
	r := &Run{Kind: clean(kind), StartedAt: at.Truncate(time.Second)}
	err := s.write(ctx, func(tx *sql.Tx) error {
		release, alone, err := s.holdRun(ctx)
		if err != nil {
			return err
		}
		s.held.add(r, release)
		if alone {
			if err := s.abandon(ctx, tx, unix(r.StartedAt)); err != nil {
				return err
			}
		}
		if err := tx.QueryRowContext(ctx, s.q(`INSERT INTO runs (kind, started_at) VALUES (?, ?) RETURNING run_id`),
			r.Kind, unix(r.StartedAt)).Scan(&r.ID); err != nil {
			return err
		}
		day := unix(r.StartedAt) - unix(r.StartedAt)%86400
		var last sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT MAX(day) FROM calendar_days`).Scan(&last); err != nil {
			return err
		}
		from := day
		if last.Valid && last.Int64 < day {
			from = last.Int64
		}
		return s.addDays(ctx, tx, from, day)
	})
	if err != nil {
		s.held.release(r)
		return nil, err
	}
	return r, nil
}

// FinishRun records how the run ended, and when, then rolls up the
// periods that ended by the run's start into directory_rollups and
// platform_rollups, the run's own values again when it started before
// the last rollup. It releases the run's lock even when it fails: the
// run is over, and a later run records it as abandoned.
func (s *DB) FinishRun(ctx context.Context, r *Run, outcome Outcome, at time.Time) error {
	if r == nil {
		return errNoRun
	}
	defer s.held.release(r)
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.q(`UPDATE runs SET finished_at = ?, outcome = ?, requests = ?, bytes_read = ? WHERE run_id = ?`),
			unix(at), string(outcome), r.Requests, r.BytesRead, r.ID)
		return err
	})
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error { return s.rollup(ctx, tx, unix(r.StartedAt), unix(r.StartedAt)) })
}

// RecordFailure records an item the run could not get after its
// retries: its stage (directory, details, reports, activity), its name
// (clipped to what an index holds) and the error, which the run then
// skips.
func (s *DB) RecordFailure(ctx context.Context, r *Run, stage, item, message string, at time.Time) error {
	if r == nil {
		return errNoRun
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO failures (run_id, stage, item, error, at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (run_id, stage, item) DO UPDATE SET error = excluded.error, at = excluded.at`),
			r.ID, clean(stage), clean(clip(item)), clean(message), unix(at)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`UPDATE runs SET failures = failures + 1, requests = ?, bytes_read = ? WHERE run_id = ?`), r.Requests, r.BytesRead, r.ID)
		return err
	})
	if err == nil {
		r.Failures++
	}
	return err
}

// addDays adds to calendar_days the UTC days from the one holding from
// to the one holding to, for the daily views: a value may hold across
// days no run saw. (WHERE true: SQLite would read ON CONFLICT after a
// bare FROM as a join's ON.)
func (s *DB) addDays(ctx context.Context, tx *sql.Tx, from, to int64) error {
	_, err := tx.ExecContext(ctx, s.q(`WITH RECURSIVE d(day) AS (
			SELECT CAST(? AS BIGINT) UNION ALL SELECT day + 86400 FROM d WHERE day + 86400 <= CAST(? AS BIGINT))
		INSERT INTO calendar_days (day) SELECT day FROM d WHERE true ON CONFLICT DO NOTHING`), from-from%86400, to)
	return err
}

// tally brings the run's row up to date inside the write that did the
// work, so a run killed at any moment is recorded as far as it got.
func (s *DB) tally(ctx context.Context, tx *sql.Tx, r *Run, added, changed, entries int64) error {
	_, err := tx.ExecContext(ctx, s.q(tallyQuery), tallyArgs(r, added, changed, entries)...)
	return err
}

const tallyQuery = `UPDATE runs SET requests = ?, bytes_read = ?, rows_added = rows_added + ?, rows_changed = rows_changed + ?, entries = entries + ? WHERE run_id = ?`

func tallyArgs(r *Run, added, changed, entries int64) []any {
	return []any{r.Requests, r.BytesRead, added, changed, entries, r.ID}
}
