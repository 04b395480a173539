package store

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The same runs write the same rows, to the bit, to PostgreSQL through
// pgx's batches and arrays as to SQLite through database/sql: every
// table, every column, floats compared by their exact value. The runs
// write batches larger than a SQLite statement (128 rows), an entry
// listed twice in one batch, text SQLite and PostgreSQL store alike only
// once cleaned (NUL, invalid UTF-8), text made of the syntax of the
// arrays the rows go to PostgreSQL in, nulls, partial coverage, floats
// that no short decimal holds, entries that leave, activity, and the
// hourly and daily rollups of two days.
func TestPostgresWritesAsSQLite(t *testing.T) {
	t.Parallel()
	lite := open(t, filepath.Join(t.TempDir(), "g.sqlite"))
	pg := open(t, pgtest.NewDatabase(t))
	for _, db := range []*DB{lite, pg} {
		sameRuns(t, db)
	}
	names := table(t, lite, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'`)
	require.Contains(t, names, "directory_rollups")
	for _, name := range names {
		assert.Equal(t, exactRows(t, lite, name), exactRows(t, pg, name), name)
	}
}

// sameRuns are TestPostgresWritesAsSQLite's runs.
func sameRuns(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	odd := []float64{0.1 + 0.2, 1e300, 5e-324, -123456.789012345678, 1.0 / 3}
	for h, at := range []time.Time{day0, day0.Add(time.Hour), day0.Add(26 * time.Hour), day0.Add(50 * time.Hour)} {
		var entries []Entry
		for i := range 300 - 40*h { // the last games leave as the runs go on
			vals := map[string]any{"players": odd[(i+h)%len(odd)] * float64(i%7+1), "rating": nil}
			if i%3 == h%3 {
				vals["peak"] = float64(i)
			}
			e := entry("g"+strconv.Itoa(i), i%4 == 0, vals)
			title := fmt.Sprintf("t\x00%d \xff", i)
			if i%5 != 0 {
				e.Title = &title
			}
			e.Players = e.Values["players"]
			entries = append(entries, e)
		}
		entries = append(entries, entries[7]) // listed twice
		// Text made of an array literal's syntax, in a key, a member's
		// name and a title.
		syntax := entry(`g"\{,} NULL`, false, map[string]any{"players": 1e21 * float64(h+1), `m"\,{} NULL`: math.MaxFloat64})
		word := "NULL"
		syntax.Title, syntax.Players = &word, syntax.Values["players"]
		entries = append(entries, syntax)
		r, err := db.BeginRun(ctx, "game", at)
		require.NoError(t, err)
		counts, err := db.SaveEntries(ctx, r, entries)
		require.NoError(t, err)
		require.Empty(t, counts.Refused)
		_, err = db.EndWalk(ctx, r)
		require.NoError(t, err)
		var pts []Point
		for m := range 12 {
			pts = append(pts, point(at.Add(time.Duration(m*5-60)*time.Minute), odd[m%len(odd)], m%2 == 0))
		}
		require.NoError(t, db.SaveActivity(ctx, r, pts, at))
		require.NoError(t, db.FinishRun(ctx, r, OutcomeOK, at))
	}
}

// exactRows are a table's rows as text, sorted, each float as the
// shortest decimal that reads back as the same float64.
func exactRows(t *testing.T, db *DB, name string) []string {
	t.Helper()
	cols, rows := rowsOf(t, db, `SELECT * FROM `+name)
	var out []string
	for _, vals := range rows {
		row := ""
		for i, v := range vals {
			switch v := v.(type) {
			case float64:
				row += cols[i] + "=" + strconv.FormatFloat(v, 'g', -1, 64) + " "
			case []byte:
				row += cols[i] + "=" + strconv.Quote(string(v)) + " "
			case string:
				row += cols[i] + "=" + strconv.Quote(v) + " "
			default:
				row += fmt.Sprintf("%s=%v ", cols[i], v)
			}
		}
		out = append(out, row)
	}
	slices.Sort(out)
	return out
}

// PostgreSQL's reads over a list of keys search the table's primary key
// once for each key, in a database as a run finds it: statistics taken
// before its last hours were written. The planner pulled the LATERAL
// subquery up into a plain join and read the whole of directory_values
// for each list instead (a sequential scan, 64,000 rows for 138 at
// 20,000 games), most of a run's time (issue 40).
func TestListReadsJoinEachKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	db := open(t, dsn)
	fillScale(t, db, dsn, 200, 2)
	_, err := db.db.ExecContext(ctx, `ANALYZE`)
	require.NoError(t, err)
	fillMore(t, db, 3000, scaleStart.Add(2*time.Hour))

	var keys []seriesKey
	for i := range 128 {
		keys = append(keys, seriesKey{Key{"game", "g" + strconv.Itoa(i*7), ""}, "players"})
	}
	query, args := db.segmentsStatement(keys, scaleStart.Add(2*time.Hour).Unix(), scaleStart.Add(3*time.Hour).Unix())
	plan := table(t, db, "EXPLAIN "+query, args...)
	assert.NotContains(t, strings.Join(plan, "\n"), "Seq Scan on directory_values")
}

// fillMore writes an hourly run of games entries at at, without ANALYZE.
func fillMore(t *testing.T, db *DB, games int, at time.Time) {
	t.Helper()
	players := make([]float64, games)
	for i := range players {
		players[i] = float64(i)
	}
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", at)
	require.NoError(t, err)
	for lo := 0; lo < games; lo += 100 {
		_, err := db.SaveEntries(ctx, r, scaleBatch(players, lo))
		require.NoError(t, err)
	}
	require.NoError(t, db.FinishRun(ctx, r, OutcomeOK, at))
}

// SaveEntries on PostgreSQL takes the write lock with its first reads,
// not as a statement of its own: while another writer holds it,
// SaveEntries waits, and writes once that writer's transaction ends.
func TestSaveEntriesTakesTheWriteLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := pgtest.NewDatabase(t)
	db := open(t, dsn)
	r, err := db.BeginRun(ctx, "game", day0)
	require.NoError(t, err)
	other := pgtest.Open(t, dsn)
	tx, err := other.BeginTx(ctx, nil)
	require.NoError(t, err)
	_, err = tx.ExecContext(ctx, lockQuery, lockKey1, lockKey2)
	require.NoError(t, err)

	done := make(chan error, 1)
	go func() {
		_, err := db.SaveEntries(ctx, r, []Entry{entry("a", false, map[string]any{"players": 1.0})})
		done <- err
	}()
	for waiting := 0; waiting == 0; { // until the server says SaveEntries waits for the lock
		select {
		case err := <-done:
			t.Fatalf("SaveEntries ended (%v) while another writer held the lock", err)
		default:
		}
		require.NoError(t, other.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`).Scan(&waiting))
	}
	assert.Equal(t, 0, count(t, db, `SELECT COUNT(*) FROM directory`))
	require.NoError(t, tx.Commit())
	require.NoError(t, <-done)
	assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM directory`))
}
