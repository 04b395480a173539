package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/spf13/cobra"
)

// pruneOptions are prune's options.
type pruneOptions struct {
	common
	DB string
	// KeepRaw is how long raw rows are kept, back from now.
	KeepRaw time.Duration
	// KeepHourly is how long the hourly rollups of entries are kept,
	// back from now; 0 keeps them all.
	KeepHourly time.Duration
	// Now is the clock the cut is measured on.
	Now func() time.Time

	keepRaw, keepHourly string // --keep-raw and --keep-hourly, as given
}

// parseKeep reads the value of --flag, a duration such as 90d, 12h or
// 1h30m; a value it cannot read is refused with what is wrong with it
// and the units it takes.
func parseKeep(flag, s string) (time.Duration, error) {
	d, err := keepDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("prune --%s %q: %v; the units are d (days of 24 hours), h, m and s", flag, s, err)
	case d <= 0:
		return 0, fmt.Errorf("prune --%s %q: want a duration above 0, such as 90d or 2160h", flag, s)
	}
	return d, nil
}

// keepValue splits what reads as a number and a unit.
var keepValue = regexp.MustCompile(`^([-+]?[0-9.]+)(\pL*)$`)

// unitDays are units a person may reach for that a duration does not
// take, in days, to say the value in days.
var unitDays = map[string]int{"y": 365, "w": 7}

// keepDuration reads a duration: Go's units (time.ParseDuration), and d
// for whole days of 24 hours. The error of a value that is not one says
// what is wrong with it: no unit, a unit it does not take, part of a day.
func keepDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		switch {
		case err != nil:
			return 0, errors.New("d takes a whole number of days; for part of one, give hours, such as 36h")
		case n >= 100000 || n <= -100000:
			return 0, errors.New("want fewer than 100000 days")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	m := keepValue.FindStringSubmatch(s)
	if m == nil {
		return 0, errors.New("want a number and a unit, such as 90d or 2160h")
	}
	number, unit := m[1], m[2]
	if unit == "" {
		return 0, fmt.Errorf("a number needs a unit, such as %sd for days or %sh for hours", number, number)
	}
	if n, err := strconv.Atoi(number); err == nil && unitDays[strings.ToLower(unit)] > 0 {
		return 0, fmt.Errorf("no unit %q: give days, such as %dd", unit, n*unitDays[strings.ToLower(unit)])
	}
	return 0, fmt.Errorf("no unit %q", unit)
}

// parseKeeps reads --keep-raw and --keep-hourly into opts: an hourly
// rollup is kept at least as long as the raw rows it was made from,
// which are what a run that brings a late value rolls again.
func (opts *pruneOptions) parseKeeps() error {
	var err error
	if opts.KeepRaw, err = parseKeep("keep-raw", opts.keepRaw); err != nil {
		return err
	}
	if opts.keepHourly == "" {
		opts.KeepHourly = 0
		return nil
	}
	if opts.KeepHourly, err = parseKeep("keep-hourly", opts.keepHourly); err != nil {
		return err
	}
	if opts.KeepHourly < opts.KeepRaw {
		return fmt.Errorf("prune --keep-hourly %s is shorter than --keep-raw %s: keep hourly rollups at least as long as raw rows", opts.keepHourly, opts.keepRaw)
	}
	return nil
}

func newCmdPrune(f *factory, runF func(context.Context, *pruneOptions) error) *cobra.Command {
	opts := &pruneOptions{Now: time.Now}
	if runF == nil {
		runF = pruneRun
	}
	cmd := &cobra.Command{
		Use:   "prune --db FILE|postgres://… --keep-raw 90d [--keep-hourly 400d]",
		Short: "Delete raw rows older than --keep-raw from a sync database, keeping the rollups",
		Long: `Delete from a database that sync writes the raw rows (directory_values and
activity_points) older than --keep-raw, in one transaction: a prune killed
at any moment leaves the database as before or as after. It first rolls
up every hour and day that ended by the last run, so directory_rollups and
platform_rollups keep every period (but the hourly rollups of entries that
--keep-hourly deletes); the cut goes no later than the end of
the last day rolled up. Of each member of each entry the last row before
the cut is kept, and of the activity the last point before it, so values
still hold across the cut. Every rollup of an hour or day that starts
before the cut is final: no later sync rolls it again from what is left,
nor writes back the activity points before the cut that it reads again.
The daily views read raw rows: read the days before the cut from the
rollup tables.

The hourly rollups of entries are as many as the raw rows of a value
that changes every hour, so with every rollup kept a prune bounds only
part of the database's growth (BENCHMARKS.md has the figures). --keep-hourly
deletes them too, in the same transaction, for the UTC days before its
cut (never later than the raw cut's day); the daily rollups of entries
and every rollup of the platform are kept for ever. No dashboard panel
reads the hourly rollups of entries: a game's panel reads raw rows, and
for the days before the raw cut the daily rollups. Without --keep-hourly
every hourly rollup is kept.

It asks the service nothing, and has no time bound unless --timeout gives
one; Ctrl-C rolls it back.`,
		Example: "  gamedata prune --db games.sqlite --keep-raw 90d\n  gamedata prune --db games.sqlite --keep-raw 90d --keep-hourly 400d\n  gamedata prune --db postgres://gamedata@localhost:5432/games --keep-raw 2160h",
		Args:    message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return err
			}
			if opts.DB == "" {
				return message.Usagef("prune: --db FILE or --db postgres://… is required")
			}
			if _, err := dsn.Parse(opts.DB); err != nil {
				return message.Usagef("prune: %w", err)
			}
			if err := opts.parseKeeps(); err != nil {
				return message.UsageError{Err: err}
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.DB, "db", "", "the SQLite file, or a postgres:// URL, that sync writes")
	fl.StringVar(&opts.keepRaw, "keep-raw", "90d", "how long to keep raw rows, back from now: 90d, 2160h")
	fl.StringVar(&opts.keepHourly, "keep-hourly", "", "how long to keep the hourly rollups of entries, back from now, at least --keep-raw: 400d (default: all)")
	opts.addTimeoutFlag(cmd, noBound)
	return cmd
}

// pruneRun prunes and says what it deleted. A SQLite file that does not
// exist is an error, not a new empty database.
func pruneRun(ctx context.Context, opts *pruneOptions) error {
	conn, err := dsn.Parse(opts.DB)
	if err != nil {
		return err
	}
	if conn.Warning != "" {
		message.Line(opts.IO.errOut, "prune: %s", conn.Warning)
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
	now := opts.Now()
	var hourly time.Time
	if opts.KeepHourly > 0 {
		hourly = now.Add(-opts.KeepHourly)
	}
	n, err := db.Prune(ctx, now.Add(-opts.KeepRaw), hourly)
	if err != nil {
		return fmt.Errorf("prune: %s: %w", dsn.Redact(opts.DB), err)
	}
	if n.Cut.IsZero() {
		message.Line(opts.IO.errOut, "prune: %s holds no run: nothing to prune", dsn.Redact(opts.DB))
		return nil
	}
	if n.HourlyCut.IsZero() {
		message.Line(opts.IO.errOut, "prune: deleted %d directory values and %d activity points before %s; every rollup kept",
			n.Values, n.Points, n.Cut.Format(time.RFC3339))
		return nil
	}
	message.Line(opts.IO.errOut, "prune: deleted %d directory values and %d activity points before %s, and %d hourly rollups of entries before %s; every daily and platform rollup kept",
		n.Values, n.Points, n.Cut.Format(time.RFC3339), n.Hourly, n.HourlyCut.Format(time.RFC3339))
	return nil
}
