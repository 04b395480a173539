package store

import (
	"context"
	"database/sql"
)

// seriesMembers reads the members that are series: those that have held
// a number or a boolean in some entry. A member sent only as null, or
// only as text, is not one, so a text member that is null (an entry's
// organization) adds no row of NULLs to directory_values.
func (s *DB) seriesMembers(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, seriesMembersQuery)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known, err := scanMembers(rows)
	if err != nil {
		return nil, err
	}
	return known, rows.Err()
}

const seriesMembersQuery = `SELECT member FROM series_members`

// scanMembers reads the rows of seriesMembersQuery.
func scanMembers(rows scannedRows) (map[string]bool, error) {
	known := map[string]bool{}
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		known[m] = true
	}
	return known, nil
}

// addSeriesMembers records the members that hold a number or a boolean
// in entries and are not yet known, and adds them to known.
func (s *DB) addSeriesMembers(ctx context.Context, tx *sql.Tx, known map[string]bool, entries []Entry) error {
	for _, e := range entries {
		for name, v := range e.Values {
			name = clean(name)
			if v == nil || known[name] {
				continue
			}
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO series_members (member) VALUES (?) ON CONFLICT DO NOTHING`), name); err != nil {
				return err
			}
			known[name] = true
		}
	}
	return nil
}

// seriesValues is values without the nulls of members that are not
// series: values itself when it has none, as most entries.
func seriesValues(values map[string]*float64, known map[string]bool) map[string]*float64 {
	kept := func(name string, v *float64) bool { return v != nil || known[clean(name)] }
	for name, v := range values {
		if !kept(name, v) {
			out := make(map[string]*float64, len(values))
			for name, v := range values {
				if kept(name, v) {
					out[name] = v
				}
			}
			return out
		}
	}
	return values
}
