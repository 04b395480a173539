package collect

import (
	"context"
	"database/sql"
	"encoding/json"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The store conformance suite, against a real twin: what both
// databases must do alike.

// smallTwin is a catalogue small enough to sync many times in a test.
func smallTwin(t *testing.T) *gamedatatest.Server {
	t.Helper()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(20, 4, 3))
	t.Cleanup(twin.Close)
	return twin
}

// A run over unchanged data writes nothing: its database equals the
// database after the first run, row for row, and only the runs table
// grows.
func TestRerunIsIdempotent(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		twin := smallTwin(t)
		c := newClient(t, twin, "")
		db, read := openDB(t, dsn)
		s1, err := Run(ctx, c, db, options("game", "24h", at(start)))
		require.NoError(t, err)
		first := normalForm(t, read)
		require.NotEmpty(t, first["values"])
		s2, err := Run(ctx, c, db, options("game", "24h", at(start.Add(time.Hour))))
		require.NoError(t, err)
		assert.Equal(t, first, normalForm(t, read))
		assert.Zero(t, s2.Added+s2.ChangedRows, "nothing added or changed")
		assert.Equal(t, s1.Entries, s2.Entries)
		assert.Equal(t, 2, query[int](t, read, `SELECT COUNT(*) FROM runs WHERE outcome = 'ok' AND finished_at IS NOT NULL`))
	})
}

// null is NULL: every numeric member an entry sent as null is a NULL
// value in the series, a text member's null is no row, and no value is 0
// where the entry had none.
func TestNullsStayNull(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		twin := smallTwin(t)
		db, read := openDB(t, dsn)
		_, err := Run(context.Background(), newClient(t, twin, ""), db, options("game", "24h", at(start)))
		require.NoError(t, err)
		entries := twin.Catalog().Entries(url.Values{"kind": {"game"}})
		numeric := map[string]bool{} // the members some entry sends as a number or a boolean
		for _, e := range entries {
			var m map[string]any
			require.NoError(t, json.Unmarshal(e.JSON(), &m))
			for name, v := range m {
				switch v.(type) {
				case float64, bool:
					numeric[name] = true
				}
			}
		}
		nulls, textNulls := 0, 0
		for _, e := range entries {
			var m map[string]any
			require.NoError(t, json.Unmarshal(e.JSON(), &m))
			for name, v := range m {
				switch v.(type) {
				case nil:
					nulls++
					want := 0
					if numeric[name] {
						want = 1
					} else {
						textNulls++
					}
					assert.Equal(t, want, query[int](t, read, `SELECT COUNT(*) FROM directory_values WHERE ident = $1 AND member = $2 AND value IS NULL`, e.Ident, name), e.Ident+"."+name)
				case float64:
					assert.Equal(t, v, query[float64](t, read, `SELECT value FROM directory_values WHERE ident = $1 AND member = $2`, e.Ident, name), e.Ident+"."+name)
				}
			}
			if !e.Players.Valid {
				assert.Equal(t, 1, query[int](t, read, `SELECT COUNT(*) FROM directory WHERE ident = $1 AND players IS NULL`, e.Ident))
			}
		}
		require.Positive(t, nulls, "the twin sends nulls")
		require.Positive(t, textNulls, "the twin sends text members as null")
		assert.Positive(t, query[int](t, read, `SELECT COUNT(*) FROM history WHERE players IS NULL`))
		assert.Positive(t, query[int](t, read, `SELECT COUNT(*) FROM activity_points WHERE players IS NULL`))
	})
}

// A sync killed with SIGKILL at a random moment, then run again, leaves
// the database an uninterrupted run leaves. The killed run is a process
// of its own (this test binary in its helper mode), killed when the twin
// has received its k-th request, k drawn at random (the seed is logged).
func TestKillAndRerun(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		twin := smallTwin(t)
		ref, refRead := openDB(t, dsn)
		before := len(twin.Requests())
		_, err := Run(ctx, newClient(t, twin, ""), ref, options("game", "24h", time.Now))
		require.NoError(t, err)
		want := normalForm(t, refRead)
		total := len(twin.Requests()) - before

		seed := time.Now().UnixNano()
		t.Logf("seed %d, %d requests a run", seed, total)
		rnd := rand.New(rand.NewPCG(uint64(seed), 0))
		for trial := range 3 {
			dsn := pgtest.NewLike(t, dsn)
			k := 1 + rnd.IntN(total)
			spec, _ := json.Marshal(helperSpec{URL: twin.URL, DSN: dsn, Kind: "game", Range: "24h"})
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), helperEnv+"="+string(spec))
			n := len(twin.Requests())
			require.NoError(t, cmd.Start())
			wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			err := twin.WaitRequests(wctx, n+k)
			cancel()
			require.NoError(t, cmd.Process.Kill())
			cmd.Wait()
			require.NoError(t, err, "the helper never made request %d", k)

			db, read := openDB(t, dsn)
			_, err = Run(ctx, newClient(t, twin, ""), db, options("game", "24h", time.Now))
			require.NoError(t, err, "trial %d, killed at request %d", trial, k)
			assert.Equal(t, want, normalForm(t, read), "trial %d, killed at request %d", trial, k)
			assert.Equal(t, 1, query[int](t, read, `SELECT COUNT(*) FROM runs WHERE outcome = 'ok'`))
		}
	})
}

// Runs that start together on a new database all succeed, and leave the
// database one run leaves.
func TestConcurrentFirstRuns(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		twin := smallTwin(t)
		ref, refRead := openDB(t, pgtest.NewLike(t, dsn))
		_, err := Run(ctx, newClient(t, twin, ""), ref, options("game", "24h", time.Now))
		require.NoError(t, err)

		const n = 3
		errs := make(chan error, n)
		go1 := make(chan struct{})
		for range n {
			c := newClient(t, twin, "")
			go func() {
				<-go1
				db, err := store.Open(ctx, dsn)
				if err != nil {
					errs <- err
					return
				}
				defer db.Close()
				_, err = Run(ctx, c, db, options("game", "24h", time.Now))
				errs <- err
			}()
		}
		close(go1)
		for range n {
			assert.NoError(t, <-errs)
		}
		_, read := openDB(t, dsn)
		assert.Equal(t, normalForm(t, refRead), normalForm(t, read))
		assert.Equal(t, n, query[int](t, read, `SELECT COUNT(*) FROM runs WHERE outcome = 'ok'`))
	})
}

// A sync killed mid-run leaves its run running; the next run records it
// as abandoned, ended when that run started, and itself as ok. The
// killed run is a process of its own (this test binary in its helper
// mode), killed at its second request: the directory is one page, so
// its start is recorded by then.
func TestKilledRunIsAbandoned(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		twin := smallTwin(t)
		spec, _ := json.Marshal(helperSpec{URL: twin.URL, DSN: dsn, Kind: "game", Range: "24h"})
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+string(spec))
		require.NoError(t, cmd.Start())
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		err := twin.WaitRequests(wctx, 2)
		cancel()
		require.NoError(t, cmd.Process.Kill())
		cmd.Wait()
		require.NoError(t, err, "the helper never made its second request")
		endSessions(t, dsn)

		db, read := openDB(t, dsn)
		require.Equal(t, "running", query[string](t, read, `SELECT outcome FROM runs`))
		s, err := Run(ctx, newClient(t, twin, ""), db, options("game", "24h", time.Now))
		require.NoError(t, err)
		assert.Equal(t, "abandoned 0", query[string](t, read, `SELECT outcome || ' ' || COALESCE(CAST(finished_at - (SELECT started_at FROM runs WHERE run_id = $1) AS TEXT), 'no end')
			FROM runs WHERE run_id <> $2`, s.Run, s.Run), "ended by the next run's start")
		assert.Equal(t, "ok", query[string](t, read, `SELECT outcome FROM runs WHERE run_id = $1`, s.Run))
	})
}

// endSessions waits for PostgreSQL to end the sessions that a killed
// process left on the database dsn, which it does once it sees their
// connections closed, so that the test does not race it. A SQLite
// file's locks end with the process.
func endSessions(t *testing.T, dsn string) {
	t.Helper()
	if !strings.HasPrefix(dsn, "postgres://") {
		return
	}
	db, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Exec(`SELECT pg_terminate_backend(pid, 60000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	require.NoError(t, err)
}
