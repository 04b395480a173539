package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run begun on a database closed before its end is over: the next run
// records it as abandoned, ended by its own start. A run still live when
// another starts and ends is left running, and records its own end.
func TestAbandonedRuns(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		for _, tc := range []struct {
			name  string
			ended bool // the first run's database is closed before the second run
			want  string
		}{
			{"dead", true, fmt.Sprint("abandoned ", day0.Add(time.Hour).Unix())},
			{"live", false, "running null"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				dsn := pgtest.NewLike(t, dsn)
				first := open(t, dsn)
				r1, err := first.BeginRun(ctx, "game", day0)
				require.NoError(t, err)
				if tc.ended {
					require.NoError(t, first.Close())
				}
				db := open(t, dsn)
				r2, _, _ := run(t, db, day0.Add(time.Hour), entry("a", false, map[string]any{"players": 1.0}))
				outcome := `SELECT outcome, finished_at FROM runs WHERE run_id = ?`
				assert.Equal(t, []string{tc.want}, table(t, db, outcome, r1.ID))
				assert.Equal(t, []string{fmt.Sprint("ok ", day0.Add(time.Hour).Unix())}, table(t, db, outcome, r2.ID))
				if !tc.ended {
					require.NoError(t, first.FinishRun(ctx, r1, OutcomeOK, day0.Add(2*time.Hour)))
					run(t, db, day0.Add(3*time.Hour))
					assert.Equal(t, []string{fmt.Sprint("ok ", day0.Add(2*time.Hour).Unix())}, table(t, db, outcome, r1.ID),
						"a run that found another live never marks it")
				}
			})
		}
	})
}

// A run lock that cannot be held fails the run's start, naming the file
// and what to do, before anything is recorded.
func TestRunLockRefused(t *testing.T) {
	t.Parallel()
	dsn := filepath.Join(t.TempDir(), "g.sqlite")
	db := open(t, dsn)
	require.NoError(t, os.Mkdir(dsn+"-runlock", 0o755))
	_, err := db.BeginRun(context.Background(), "game", day0)
	assert.ErrorContains(t, err, "cannot hold the run lock "+dsn+"-runlock (")
	assert.ErrorContains(t, err, "; sync keeps that file beside the database: let it be a file this user can open, in a directory it can write")
	assert.Zero(t, count(t, db, `SELECT COUNT(*) FROM runs`))
}
