package store

import (
	"context"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Details are due for new entries, for entries whose change key moved,
// and once their last fetch is older than the refresh age; reports when
// theirs is, measured from when they were fetched. An entry no request
// can name is never due.
func TestDue(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		const day = 24 * time.Hour
		withKey := func(e Entry, key string) Entry { e.ChangeKey = key; return e }
		a := entry("a", false, map[string]any{"players": 1.0})
		b := entry("b", false, map[string]any{"players": 2.0})
		dots := entry("..", false, map[string]any{"players": 3.0})

		r, _, _ := run(t, db, day0, withKey(a, "u1"), withKey(b, "u1"), dots)
		details, reports, err := db.DueCounts(ctx, r, day0, day, day)
		require.NoError(t, err)
		assert.Equal(t, []int{2, 2}, []int{details, reports}, `new entries, ".." left out`)
		due, err := db.DueDetails(ctx, r, Key{}, 1, day0, day)
		require.NoError(t, err)
		assert.Equal(t, []Due{{Key{"game", "a", ""}, "u1"}}, due)
		due, err = db.DueDetails(ctx, r, due[0].Key, 10, day0, day)
		require.NoError(t, err)
		assert.Equal(t, []Due{{Key{"game", "b", ""}, "u1"}}, due, "a batch at a time, in key order")

		require.NoError(t, db.SaveDetails(ctx, r, []Detail{
			{Key: a.Key, Raw: []byte(`{"ident":"a"}`), ChangeKey: "u1"},
			{Key: b.Key, Raw: []byte(`{"ident":"b"}`), ChangeKey: "u1"},
		}, day0))
		require.NoError(t, db.SaveReport(ctx, r, a.Key, []HistoryRow{{CapturedAt: day0, Raw: []byte(`{}`)}}, day0))
		details, reports, err = db.DueCounts(ctx, r, day0.Add(time.Hour), day, day)
		require.NoError(t, err)
		assert.Equal(t, []int{0, 1}, []int{details, reports}, "fetched: b's report only")

		r2, _, _ := run(t, db, day0.Add(2*time.Hour), withKey(a, "u2"), withKey(b, "u1"), dots)
		due, err = db.DueDetails(ctx, r2, Key{}, 10, day0.Add(2*time.Hour), day)
		require.NoError(t, err)
		assert.Equal(t, []Due{{Key{"game", "a", ""}, "u2"}}, due, "a's updatedAt moved")

		details, reports, err = db.DueCounts(ctx, r2, day0.Add(day), day, day)
		require.NoError(t, err)
		assert.Equal(t, []int{2, 2}, []int{details, reports}, "a day after the fetch, both are due again")
		keys, err := db.DueReports(ctx, r2, Key{}, 10, day0.Add(day), day)
		require.NoError(t, err)
		assert.Equal(t, []Key{a.Key, b.Key}, keys)
	})
}

// A report with two entries in one second is refused whole, not saved
// with one of them dropped.
func TestSaveReportRefusesRepeatedSecond(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir()+"/g.sqlite")
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", day0)
	require.NoError(t, err)
	err = db.SaveReport(ctx, r, Key{Kind: "game", Ident: "a"}, []HistoryRow{
		{CapturedAt: day0.Add(100 * time.Millisecond), Raw: []byte(`{"n":1}`)},
		{CapturedAt: day0.Add(900 * time.Millisecond), Raw: []byte(`{"n":2}`)},
	}, day0)
	require.ErrorIs(t, err, ErrRepeatedTime)
	require.ErrorContains(t, err, "game/a: two history entries captured in the second 2026-11-20T00:00:00Z")
	assert.Equal(t, 0, count(t, db, `SELECT COUNT(*) FROM history`))
}

// Activity points two to a second are refused whole too, before anything
// is written.
func TestSaveActivityRefusesRepeatedSecond(t *testing.T) {
	t.Parallel()
	db := open(t, t.TempDir()+"/g.sqlite")
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", day0)
	require.NoError(t, err)
	err = db.SaveActivity(ctx, r, []Point{
		{Time: day0.Add(-time.Hour), Raw: []byte(`[0]`)},
		{Time: day0.Add(100 * time.Millisecond), Raw: []byte(`[1]`)},
		{Time: day0.Add(900 * time.Millisecond), Raw: []byte(`[2]`)},
	}, day0)
	require.ErrorIs(t, err, ErrRepeatedTime)
	require.ErrorContains(t, err, "two activity points in the second 2026-11-20T00:00:00Z")
	assert.Equal(t, 0, count(t, db, `SELECT COUNT(*) FROM activity_points`))
}
