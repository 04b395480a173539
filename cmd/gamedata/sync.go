package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/spf13/cobra"
)

// syncFlags are the flags of sync.
type syncFlags struct {
	db, kind, rng              string
	detailsEvery, historyEvery time.Duration
	noCache                    bool
}

func (a *app) syncCommand() *cobra.Command {
	var s syncFlags
	cmd := &cobra.Command{
		Use:   "sync --db FILE|postgres://…",
		Short: "Record the directory as a series, and what changed, into SQLite or PostgreSQL",
		Long: `Record the service into a database: a SQLite file, or PostgreSQL when --db
is a postgres:// or postgresql:// URL. Each run records every directory
value of --kind (game by default) at the run's time, a row only for a
value that changed, and an entry that left as gone; then it fetches the
detail records of new entries and of entries whose updatedAt moved, or
older than --details-every; the analytics reports older than
--history-every (measured from when they were fetched); and the activity
history over --range. Over an unchanged platform of N entries a run costs
⌈N/100⌉ + 1 requests, each a 304 from the HTTP cache, which sync keeps
under the user cache directory unless --cache-dir or --no-cache says
otherwise.

On a terminal stderr shows a progress bar; every run ends with one line
on stderr and a row in the runs table. What was fetched is committed as
it goes: Ctrl-C keeps it, and the next run goes on from there. An item
that fails after its retries is recorded in the failures table and
skipped; the run goes on, then exits 1 saying how many failed. The schema
is in the README: times are Unix seconds, null is NULL, partial coverage
a column; it is migrated forward by version, never dropped.`,
		Example: "  gamedata sync --db games.sqlite\n  gamedata sync --db postgres://gamedata@localhost:5432/games\n  gamedata sync --db games.sqlite --kind server --range 24h",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := s.check(a); err != nil {
				return err
			}
			return a.sync(cmd, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&s.db, "db", "", "the SQLite file (made if it does not exist), or a postgres:// URL")
	f.StringVar(&s.kind, "kind", gamedata.KindGame, "the directory's kind: a package kind, or server")
	f.StringVar(&s.rng, "range", gamedata.Range7d, "the activity history's range")
	f.DurationVar(&s.detailsEvery, "details-every", 24*time.Hour, "fetch a detail record again after this long even if its entry did not change (0: every run)")
	f.DurationVar(&s.historyEvery, "history-every", 24*time.Hour, "fetch an analytics report again after this long (0: every run)")
	f.BoolVar(&s.noCache, "no-cache", false, "keep no HTTP cache between runs (every page is then read in full)")
	return cmd
}

// check refuses bad flags before anything is sent or opened, and gives
// sync its HTTP cache: --cache-dir, or the user cache directory.
func (s *syncFlags) check(a *app) error {
	switch {
	case s.db == "":
		return usageError{errors.New("sync: --db FILE or --db postgres://… is required")}
	case s.detailsEvery < 0 || s.historyEvery < 0:
		return usageError{fmt.Errorf("sync: --details-every %v, --history-every %v: want 0 (every run) or more", s.detailsEvery, s.historyEvery)}
	case s.noCache && a.cacheDir != "":
		return usageError{errors.New("sync: --no-cache and --cache-dir: give one")}
	case s.noCache || a.cacheDir != "":
		return nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		fmt.Fprintf(a.stderr, "gamedata: sync: no HTTP cache (%v); give --cache-dir to keep one\n", err)
		return nil
	}
	a.cacheDir = filepath.Join(dir, "gamedata")
	return nil
}

// sync runs once and says how it went, on a terminal and in a pipe.
func (a *app) sync(cmd *cobra.Command, s syncFlags) error {
	ctx, c, err := a.connect(cmd)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, s.db)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer db.Close()
	o := collect.Options{Kind: s.kind, Range: s.rng, DetailsEvery: s.detailsEvery, HistoryEvery: s.historyEvery, Concurrency: 4}
	var bar *syncBar
	if a.stderrTTY {
		bar = newSyncBar(a.stderr)
		o.Progress = bar.update
	}
	sum, err := collect.Run(ctx, c, db, o)
	if bar != nil {
		bar.end()
	}
	if sum.Run != 0 { // the run was recorded: say how it went
		fmt.Fprintf(a.stderr, "gamedata: sync: %s\n", sum)
	}
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	return nil
}
