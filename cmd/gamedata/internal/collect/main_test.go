package collect

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// helperEnv, when set, makes the test binary a sync process of its own
// (a helperSpec in JSON): the kill -9 test starts it and kills it.
const helperEnv = "GAMEDATA_COLLECT_HELPER"

type helperSpec struct {
	URL, DSN, Kind, Range string
}

func TestMain(m *testing.M) {
	if spec := os.Getenv(helperEnv); spec != "" {
		os.Exit(helper(spec))
	}
	os.Exit(pgtest.Main(m))
}

// helper runs once against the service and database spec names.
func helper(spec string) int {
	var h helperSpec
	if err := json.Unmarshal([]byte(spec), &h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx := context.Background()
	c, err := gamedata.NewClient(h.URL, gamedata.WithRateLimit(rate.Inf, 1))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	db, err := store.Open(ctx, h.DSN)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	if _, err := Run(ctx, c, db, options(h.Kind, h.Range, time.Now)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// options are sync's defaults.
func options(kind, rng string, now func() time.Time) Options {
	return Options{Kind: kind, Range: rng, DetailsEvery: 24 * time.Hour, HistoryEvery: 24 * time.Hour, Concurrency: 4, Now: now}
}

// openDB opens dsn for a run until the test ends, and returns it and the
// test's own connection to it (pgtest.Open), which reads what a run
// wrote as a user's query would.
func openDB(t testing.TB, dsn string) (*store.DB, *sql.DB) {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, pgtest.Open(t, dsn)
}

// newClient is a client of twin without a rate limit, caching on disk in
// cacheDir, or without a cache when cacheDir is "".
func newClient(t testing.TB, twin *gamedatatest.Server, cacheDir string, opts ...gamedata.Option) *gamedata.Client {
	t.Helper()
	all := []gamedata.Option{gamedata.WithRateLimit(rate.Inf, 1), gamedata.WithCache(nil)}
	if cacheDir != "" {
		cache, err := gamedata.NewDiskCache(cacheDir)
		require.NoError(t, err)
		all[1] = gamedata.WithCache(cache)
	}
	c, err := gamedata.NewClient(twin.URL, append(all, opts...)...)
	require.NoError(t, err)
	return c
}

// at is a clock stopped at t.
func at(t time.Time) func() time.Time { return func() time.Time { return t } }

// start is the fake clock's first run: the machine's clock runs on from
// the twin's 2026-11-20, as it does here.
var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// normalForm is what a database holds, without what differs between two
// runs over the same data (the runs, the times of the runs): two
// databases that went through different runs of the same data compare
// equal.
func normalForm(t *testing.T, read *sql.DB) map[string][]string {
	t.Helper()
	queries := map[string]string{
		"directory": `SELECT kind, ident, id, title, players, raw, listing, gone_at IS NULL, change_key, series,
			details_key, details_at IS NULL, report_at IS NULL FROM directory`,
		"values": `SELECT kind, ident, id, member, value, partial_coverage, listed FROM directory_values v
			WHERE at = (SELECT MAX(at) FROM directory_values n WHERE n.kind = v.kind AND n.ident = v.ident AND n.id = v.id AND n.member = v.member)`,
		"value rows": `SELECT kind, ident, id, member, COUNT(*) FROM directory_values GROUP BY kind, ident, id, member`,
		"packages":   `SELECT kind, ident, title, players, raw FROM packages`,
		"servers":    `SELECT id, name, players, max_players, raw FROM servers`,
		"history":    `SELECT kind, ident, captured_at, players, partial_coverage, raw FROM history`,
		"activity":   `SELECT time, players, average, partial_coverage, current, interval_start, interval_end, raw FROM activity_points`,
		"failures":   `SELECT stage, item, error FROM failures`,
	}
	out := map[string][]string{}
	for name, q := range queries {
		rows, err := read.Query(q)
		require.NoError(t, err, name)
		cols, err := rows.Columns()
		require.NoError(t, err)
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(t, rows.Scan(ptrs...))
			var b strings.Builder
			for i, v := range vals {
				if i > 0 {
					b.WriteString(" | ")
				}
				switch v := v.(type) {
				case nil:
					b.WriteString("NULL")
				case []byte:
					b.Write(v)
				default:
					fmt.Fprint(&b, v)
				}
			}
			out[name] = append(out[name], b.String())
		}
		require.NoError(t, rows.Err())
		rows.Close()
		slices.Sort(out[name])
	}
	return out
}

// query is a one-value query, read through read.
func query[T any](t *testing.T, read *sql.DB, q string, args ...any) T {
	t.Helper()
	var v T
	require.NoError(t, read.QueryRow(q, args...).Scan(&v))
	return v
}
