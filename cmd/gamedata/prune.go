package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/say"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/usage"
	"github.com/spf13/cobra"
)

// pruneOptions are prune's options.
type pruneOptions struct {
	common
	DB string
	// KeepRaw is how long raw rows are kept, back from now.
	KeepRaw time.Duration
	// Now is the clock the cut is measured on.
	Now func() time.Time

	keepRaw string // --keep-raw, as given
}

// parseKeep reads a duration such as 90d, 12h or 1h30m: Go's units and d
// for days of 24 hours.
func parseKeep(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err == nil && n > 0 && n < 100000 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("prune --keep-raw %q: want a duration above 0, such as 90d or 2160h", s)
}

func newCmdPrune(f *factory, runF func(context.Context, *pruneOptions) error) *cobra.Command {
	opts := &pruneOptions{Now: time.Now}
	if runF == nil {
		runF = pruneRun
	}
	cmd := &cobra.Command{
		Use:   "prune --db FILE|postgres://… --keep-raw 90d",
		Short: "Delete raw rows older than --keep-raw from a sync database, keeping every rollup",
		Long: `Delete from a database that sync writes the raw rows (directory_values and
activity_points) older than --keep-raw, in one transaction: a prune killed
at any moment leaves the database as before or as after. It first rolls
up every hour and day that ended by the last run, so directory_rollups and
platform_rollups keep every period; the cut goes no later than the end of
the last day rolled up. Of each member of each entry the last row before
the cut is kept, and of the activity the last point before it, so values
still hold across the cut. The daily views read raw rows: read the days
before the cut from the rollup tables.

It asks the service nothing, and has no time bound unless --timeout gives
one; Ctrl-C rolls it back.`,
		Example: "  gamedata prune --db games.sqlite --keep-raw 90d\n  gamedata prune --db postgres://gamedata@localhost:5432/games --keep-raw 2160h",
		Args:    usage.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.common = f.common(cmd, 0)
			if opts.DB == "" {
				return usage.Errorf("prune: --db FILE or --db postgres://… is required")
			}
			if _, err := dsn.Parse(opts.DB); err != nil {
				return usage.Errorf("prune: %w", err)
			}
			d, err := parseKeep(opts.keepRaw)
			if err != nil {
				return usage.Error{Err: err}
			}
			opts.KeepRaw = d
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.DB, "db", "", "the SQLite file, or a postgres:// URL, that sync writes")
	fl.StringVar(&opts.keepRaw, "keep-raw", "90d", "how long to keep raw rows, back from now: 90d, 2160h")
	return cmd
}

// pruneRun prunes and says what it deleted. A SQLite file that does not
// exist is an error, not a new empty database.
func pruneRun(ctx context.Context, opts *pruneOptions) error {
	conn, err := dsn.Parse(opts.DB)
	if err != nil {
		return err
	}
	if conn.Kind == dsn.SQLite {
		if _, err := os.Stat(opts.DB); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("prune: %s: no such database; gamedata sync --db %s makes one", opts.DB, opts.DB)
		}
	}
	db, err := store.Open(ctx, opts.DB)
	if err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	defer db.Close()
	n, err := db.Prune(ctx, opts.Now().Add(-opts.KeepRaw))
	if err != nil {
		return fmt.Errorf("prune: %s: %w", dsn.Redact(opts.DB), err)
	}
	if n.Cut.IsZero() {
		say.Line(opts.IO.errOut, "prune: %s holds no run: nothing to prune", dsn.Redact(opts.DB))
		return nil
	}
	say.Line(opts.IO.errOut, "prune: deleted %d directory values and %d activity points before %s; every rollup kept",
		n.Values, n.Points, n.Cut.Format(time.RFC3339))
	return nil
}
