package main

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/chart"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
	"github.com/spf13/cobra"
)

// chartOptions are chart's options.
type chartOptions struct {
	common
	// Target is activity or package; Kind and Ident name the package.
	Target, Kind, Ident string
	Range               string
	rangeGiven          bool
	Out                 string
	Term                bool
}

func newCmdChart(f *factory, runF func(context.Context, *chartOptions) error) *cobra.Command {
	opts := &chartOptions{}
	if runF == nil {
		runF = chartRun
	}
	cmd := &cobra.Command{
		Use:   "chart activity | chart package KIND/IDENT",
		Short: "Chart the platform's activity, or a package's analytics history",
		Long: `Chart players over time: the platform's activity history (chart activity
--range 7d), or one package's analytics history (chart package KIND/IDENT),
to a PNG or SVG file (--out, by its extension, in any case), or in the
terminal (--term, as wide as the terminal).

Averages are a line, and an average between two gaps a dot; snapshots are
red dots; a gap is left where the players are unavailable. Partial
coverage (values that are a lower bound) is a band behind the line in a
file, and a row of ^ under the chart in the terminal. Time is labelled at
round hours or days, in UTC. The title names the range the service sent,
which is said on stderr when it is not the one asked for.

It gives up after ` + defaultTimeout.String() + ` unless --timeout says otherwise.`,
		Example: "  gamedata chart activity --range 7d --out week.png\n  gamedata chart package game/neon-miner --out neon.svg\n  gamedata chart activity --range 24h --term",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.complete(cmd, &opts.common, defaultTimeout); err != nil {
				return err
			}
			switch {
			case len(args) == 1 && args[0] == "activity":
				opts.Target = "activity"
			case len(args) == 2 && args[0] == "package":
				var err error
				if opts.Kind, opts.Ident, err = splitRef(args[1]); err != nil {
					return err
				}
				opts.Target = "package"
				if opts.rangeGiven {
					return message.Usagef("chart package --range: a package's chart is its whole analytics history, which has no range; leave --range out")
				}
			default:
				return message.Usagef("chart: want activity or package KIND/IDENT, got %q", strings.Join(args, " "))
			}
			if (opts.Out == "") == !opts.Term {
				return message.Usagef("chart: want --out FILE.png, --out FILE.svg or --term")
			}
			if ext := strings.ToLower(filepath.Ext(opts.Out)); opts.Out != "" && ext != ".png" && ext != ".svg" {
				return message.Usagef("chart --out %q: want a .png or .svg file", opts.Out)
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	opts.Range = gamedata.Range7d
	fl.Var(givenString{&opts.Range, &opts.rangeGiven}, "range", "chart activity's time range, such as 24h or 7d")
	fl.StringVar(&opts.Out, "out", "", "write the chart to this .png or .svg file")
	fl.BoolVar(&opts.Term, "term", false, "draw the chart in the terminal, as wide as it is (80 columns in a pipe)")
	f.addServiceFlags(cmd, &opts.common)
	opts.addTimeoutFlag(cmd, pageBound)
	return cmd
}

func chartRun(ctx context.Context, opts *chartOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var title string
	var samples []chart.Sample
	if opts.Target == "activity" {
		h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: opts.Range})
		if err != nil {
			return err
		}
		covered, notice := served.Range(opts.Range, h)
		if notice != "" {
			message.Line(opts.IO.errOut, "chart: %s", notice)
		}
		title, samples = "Players on the platform, "+covered, chart.ActivitySamples(h)
	} else {
		r, err := c.Analytics.Package(ctx, opts.Kind, opts.Ident)
		if err != nil {
			return err
		}
		title, samples = "Players of "+opts.Kind+"/"+opts.Ident, chart.HistorySamples(r.History)
	}
	title = gamedata.NewUntrusted(title).String() // the range is the service's word
	if opts.Term {
		return chart.Terminal(opts.IO.out, title, samples, opts.IO.chartWidth())
	}
	if err := chart.File(opts.Out, title, samples); err != nil {
		return err
	}
	if opts.IO.errTTY {
		message.Line(opts.IO.errOut, "wrote %s", opts.Out)
	}
	return nil
}
