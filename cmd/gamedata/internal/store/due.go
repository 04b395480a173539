package store

import (
	"context"
	"time"
)

// A detail record is due for an entry of the run's listing that is
// still listed, that a request can name (a server by its id, a package
// by an ident other than "." or "..", which are dot segments in a URL
// path) and whose record was never fetched, whose change key moved since
// (its updatedAt, or its bytes) or whose last fetch is older than every.
const dueDetails = `listing = ? AND gone_at IS NULL
	AND (id <> '' OR ident NOT IN ('', '.', '..'))
	AND (details_at IS NULL OR details_key IS NULL OR details_key <> change_key OR details_at <= ?)`

// An analytics report is due for a listed package whose report was never
// fetched or was fetched longer ago than every, measured on this
// machine's clock when it was fetched, never from the report's own
// capturedAt (the service's clock need not match ours).
const dueReports = `listing = ? AND gone_at IS NULL
	AND id = '' AND ident NOT IN ('', '.', '..')
	AND (report_at IS NULL OR report_at <= ?)`

// DueCounts counts the detail records and analytics reports due at now.
func (s *DB) DueCounts(ctx context.Context, r *Run, now time.Time, detailsEvery, reportsEvery time.Duration) (details, reports int, err error) {
	defer func() { err = s.explain(err) }()
	if r == nil {
		return 0, 0, errNoRun
	}
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM directory WHERE `+dueDetails),
		r.Kind, unix(now.Add(-detailsEvery))).Scan(&details); err != nil {
		return 0, 0, err
	}
	err = s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM directory WHERE `+dueReports),
		r.Kind, unix(now.Add(-reportsEvery))).Scan(&reports)
	return details, reports, err
}

// DueDetails returns up to limit entries whose detail record is due at
// now, in key order after the key after (the zero Key to begin), so a
// run reads them a batch at a time and passes over one that failed.
func (s *DB) DueDetails(ctx context.Context, r *Run, after Key, limit int, now time.Time, every time.Duration) (_ []Due, err error) {
	defer func() { err = s.explain(err) }()
	if r == nil {
		return nil, errNoRun
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT kind, ident, id, COALESCE(change_key, '') FROM directory
		WHERE `+dueDetails+` AND (kind, ident, id) > (?, ?, ?)
		ORDER BY kind, ident, id LIMIT ?`),
		r.Kind, unix(now.Add(-every)), after.Kind, after.Ident, after.ID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Due
	for rows.Next() {
		var d Due
		if err := rows.Scan(&d.Kind, &d.Ident, &d.ID, &d.ChangeKey); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// DueReports returns up to limit packages whose analytics report is due
// at now, in key order after the key after.
func (s *DB) DueReports(ctx context.Context, r *Run, after Key, limit int, now time.Time, every time.Duration) (_ []Key, err error) {
	defer func() { err = s.explain(err) }()
	if r == nil {
		return nil, errNoRun
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT kind, ident, id FROM directory
		WHERE `+dueReports+` AND (kind, ident, id) > (?, ?, ?)
		ORDER BY kind, ident, id LIMIT ?`),
		r.Kind, unix(now.Add(-every)), after.Kind, after.Ident, after.ID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Key
	for rows.Next() {
		var k Key
		if err := rows.Scan(&k.Kind, &k.Ident, &k.ID); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}
