package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/exporter"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/spf13/cobra"
)

// backfillOptions are backfill's options.
type backfillOptions struct {
	common
	// Config is what to write, checked, once the flags are parsed.
	Config exporter.BackfillConfig

	packages []string // --package, as given
	cfg      exporter.BackfillConfig
}

// config checks the flags and makes the backfill's configuration; an
// error is bad usage.
func (o *backfillOptions) config() (exporter.BackfillConfig, error) {
	cfg := o.cfg
	cfg.Packages = nil
	for _, p := range o.packages {
		ref, err := exporter.ParsePackage(p)
		if err != nil {
			return cfg, message.UsageError{Err: fmt.Errorf("backfill %w", err)}
		}
		cfg.Packages = append(cfg.Packages, ref)
	}
	if err := cfg.Check(); err != nil {
		return cfg, message.UsageError{Err: fmt.Errorf("backfill %w", err)}
	}
	return cfg, nil
}

func newCmdBackfill(f *factory, runF func(context.Context, *backfillOptions) error) *cobra.Command {
	opts := &backfillOptions{}
	if runF == nil {
		runF = backfillRun
	}
	cmd := &cobra.Command{
		Use:   "backfill",
		Short: "Write the service's history as OpenMetrics, for Prometheus's backfill",
		Long: `Write the service's history to stdout as OpenMetrics text with
timestamps, in the metric names and labels of gamedata exporter, for
promtool tsdb create-blocks-from openmetrics: the platform's activity
points (gamedata_platform_players, and gamedata_platform_players_partial,
1 where a point is a lower bound) over --range, and the analytics history
of the packages named with --package and of the --top N of --kind
(gamedata_package_players, gamedata_package_players_peak,
gamedata_package_info). A null is no sample, never 0. Of two packages
whose labels are alike once sanitized, it writes the one the exporter
exports and names the other on stderr; a point or history entry whose
time Prometheus cannot store (before 1970 or after the year 9999) is
left out and counted there.

--job and --instance are the labels Prometheus gives the exporter's
series (the scrape job's name and the exporter's address): with the same
ones, the exporter's series continue the backfilled ones. Nothing is
written when a request fails. It has no time bound unless --timeout
gives one.`,
		Example: `  gamedata backfill --top 100 > backfill.om
  promtool tsdb create-blocks-from openmetrics backfill.om /var/lib/prometheus/metrics2
  gamedata backfill --package game/neon-harbor --instance exporter.example:9877 > backfill.om`,
		Args: message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return err
			}
			cfg, err := opts.config()
			if err != nil {
				return err
			}
			opts.Config = cfg
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.cfg.Range, "range", gamedata.Range7d, "the activity history's range, such as 7d")
	fl.StringVar(&opts.cfg.Kind, "kind", gamedata.KindGame, "the directory kind --top reads")
	fl.IntVar(&opts.cfg.Top, "top", 0, "add the analytics history of the N packages of --kind with the most players now")
	fl.StringArrayVar(&opts.packages, "package", nil, "add the analytics history of a package, KIND/IDENT; repeat for several")
	fl.StringVar(&opts.cfg.Job, "job", exporter.DefaultJob, "the job label: the scrape job's name for the exporter")
	fl.StringVar(&opts.cfg.Instance, "instance", exporter.DefaultInstance, "the instance label: the exporter's address as Prometheus scrapes it")
	f.addServiceFlags(cmd, &opts.common)
	opts.addTimeoutFlag(cmd, noBound)
	return cmd
}

// backfillRun writes the history to stdout, then says on stderr what it
// wrote.
func backfillRun(ctx context.Context, opts *backfillOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	n, err := exporter.Backfill(ctx, c, opts.IO.out, opts.Config)
	if err != nil {
		return fmt.Errorf("backfill: %w", err)
	}
	message.Line(opts.IO.errOut, "backfill: %d activity points, %d history entries of %d packages", n.Points, n.Entries, n.Packages)
	if n.Unstorable > 0 {
		message.Line(opts.IO.errOut, "backfill: left out %d of the activity points and history entries: their times are before 1970 or after the year 9999, which Prometheus cannot store",
			n.Unstorable)
	}
	if len(n.LeftOut) > 0 {
		message.Line(opts.IO.errOut, "backfill: left out, as the exporter does, %s whose labels, sanitized, are another package's: %s",
			message.Plural(len(n.LeftOut), "package"), strings.Join(n.LeftOut, ", "))
	}
	return nil
}
