package main

import (
	"context"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/record"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
	"github.com/spf13/cobra"
)

// activityOptions are activity's options.
type activityOptions struct {
	common
	Range string
}

func newCmdActivity(f *factory, runF func(context.Context, *activityOptions) error) *cobra.Command {
	opts := &activityOptions{}
	if runF == nil {
		runF = activityRun
	}
	cmd := &cobra.Command{
		Use:   "activity",
		Short: "The platform's player activity history, a row a point",
		Long: `The player activity history of the whole platform, across every game, a
row a point: its time, players (empty when unavailable, never 0), whether
it is an average or a snapshot, and whether its coverage is partial (a
lower bound, never a complete total). The service answers a range it
does not support with its default; the command says so on stderr. It
gives up after ` + defaultTimeout.String() + ` unless
--timeout says otherwise.`,
		Example: "  gamedata activity --range 24h -o csv",
		Args:    message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.complete(cmd, &opts.common, defaultTimeout); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringVar(&opts.Range, "range", gamedata.Range7d, "time range, such as 24h, 7d or 30d; a range the service does not support is said on stderr")
	f.addRecordFlags(cmd, &opts.common, pageBound)
	return cmd
}

func activityRun(ctx context.Context, opts *activityOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: opts.Range})
	if err != nil {
		return err
	}
	if _, notice := served.Range(opts.Range, h); notice != "" {
		message.Line(opts.IO.errOut, "activity: %s", notice)
	}
	records := make([]gamedata.Fields, 0, len(h.Points))
	for _, p := range h.Points {
		f, err := record.Of(pointRow(p))
		if err != nil {
			return err
		}
		records = append(records, f)
	}
	return printAll(ctx, opts.common, records, printer.ActivityColumns, nil)
}

// point is an activity point as a row: times in RFC 3339, players null
// when unavailable.
type point struct {
	Time            string                     `json:"time"`
	Players         gamedata.Nullable[float64] `json:"players"`
	Aggregation     string                     `json:"aggregation"`
	PartialCoverage bool                       `json:"partialCoverage"`
	Current         bool                       `json:"current"`
	IntervalStart   *string                    `json:"intervalStart"`
	IntervalEnd     *string                    `json:"intervalEnd"`
}

func pointRow(p gamedata.ActivityPoint) point {
	bound := func(n gamedata.Nullable[time.Time]) *string {
		if t, ok := n.Get(); ok {
			s := t.UTC().Format(time.RFC3339)
			return &s
		}
		return nil
	}
	return point{
		Time: p.Time.UTC().Format(time.RFC3339), Players: p.Players, Aggregation: p.Aggregation.String(),
		PartialCoverage: p.PartialCoverage, Current: p.Current,
		IntervalStart: bound(p.IntervalStart), IntervalEnd: bound(p.IntervalEnd),
	}
}
