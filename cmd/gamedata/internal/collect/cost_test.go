package collect

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bodyBytes is what requests transferred.
func bodyBytes(reqs []gamedatatest.Request) int {
	n := 0
	for _, r := range reqs {
		n += r.Bytes
	}
	return n
}

// paths are the paths of requests that begin with prefix.
func paths(reqs []gamedatatest.Request, prefix string) []string {
	var out []string
	for _, r := range reqs {
		if strings.HasPrefix(r.Path, prefix) {
			out = append(out, r.Path)
		}
	}
	slices.Sort(out)
	return out
}

// The cost of a run, counted by the twin on its default catalogue. Run 1
// fetches everything; run 2, over unchanged data, costs the directory's
// pages and the activity, all answered 304 from the disk cache; after an
// hour and five updated packages, run 3 fetches those five records only,
// and the series gains their new values. The figures are in
// BENCHMARKS.md.
func TestRunCost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	twin := gamedatatest.NewServer()
	defer twin.Close()
	c := newClient(t, twin, filepath.Join(t.TempDir(), "http"))
	db, read := openDB(t, filepath.Join(t.TempDir(), "g.sqlite"))
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}})
	pages := (len(games) + 99) / 100
	run := func(now time.Time) (Summary, []gamedatatest.Request) {
		t.Helper()
		n := len(twin.Requests())
		s, err := Run(ctx, c, db, options("game", "7d", at(now)))
		require.NoError(t, err)
		reqs := twin.Requests()[n:]
		assert.Equal(t, int64(len(reqs)), s.Requests, "the run counts what the twin saw")
		return s, reqs
	}

	s1, run1 := run(start)
	assert.Len(t, run1, pages+2*len(games)+1, "run 1: every page, record and report, and the activity")
	assert.Equal(t, len(games), s1.New)
	t.Logf("run 1: %d requests, %d body bytes", len(run1), bodyBytes(run1))

	s2, run2 := run(start.Add(time.Hour))
	assert.LessOrEqual(t, len(run2), pages+2, "at most ⌈N/100⌉ + 2")
	assert.Len(t, run2, pages+1, "the pages and the activity")
	assert.LessOrEqual(t, bodyBytes(run2)*100, bodyBytes(run1)*5, "at most 5 %% of run 1's bytes")
	for _, r := range run2 {
		assert.Equal(t, 304, r.Status, r.Path)
	}
	assert.Zero(t, s2.Added, "nothing changed, nothing added")
	t.Logf("run 2: %d requests, %d body bytes", len(run2), bodyBytes(run2))

	twin.Advance(time.Hour)
	var want []string
	for i := range 5 {
		g := games[17+40*i]
		players := 1000.0 + float64(i)
		require.NoError(t, twin.UpdatePackage(g.Kind, g.Ident, gamedatatest.PackageUpdate{Players: &players}))
		want = append(want, "/api/packages/"+g.Kind+"/"+url.PathEscape(g.Ident))
	}
	slices.Sort(want)
	s3, run3 := run(start.Add(2 * time.Hour))
	assert.Equal(t, want, paths(run3, "/api/packages/"), "details of the five updated packages only")
	assert.Empty(t, paths(run3, "/api/analytics/"), "reports are a day old at most")
	assert.Len(t, run3, pages+5+1)
	assert.Equal(t, 5, s3.Changed)
	t.Logf("run 3: %d requests, %d body bytes", len(run3), bodyBytes(run3))

	at3 := start.Add(2 * time.Hour).Unix()
	for i := range 5 {
		g := games[17+40*i]
		v := query[float64](t, read, `SELECT value FROM directory_values WHERE kind = $1 AND ident = $2 AND member = 'players' AND at = $3`, g.Kind, g.Ident, at3)
		assert.Equal(t, 1000.0+float64(i), v, g.Ident)
	}
	assert.Equal(t, 5, query[int](t, read, `SELECT COUNT(DISTINCT ident) FROM directory_values WHERE at = $1`, at3), "the series gains the five, nothing else")
	assert.Equal(t, 1000.0, query[float64](t, read, `SELECT value FROM directory_at_run WHERE run_id = $1 AND ident = $2 AND member = 'players'`, s3.Run, games[17].Ident))
}
