package main

import (
	"context"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// analyticsOptions are analytics' options: whose report to read.
type analyticsOptions struct {
	common
	// Type is package or org.
	Type string
	// Kind and Ident name a package; Ident an organization.
	Kind, Ident string
}

func newCmdAnalytics(f *factory, runF func(context.Context, *analyticsOptions) error) *cobra.Command {
	opts := &analyticsOptions{}
	if runF == nil {
		runF = analyticsRun
	}
	return &cobra.Command{
		Use:   "analytics package KIND/IDENT | analytics org IDENT",
		Short: "An analytics report: its history, a row an entry",
		Long: `An analytics report of one package or organization: its history, a row an
entry, with partialCoverage (true: the totals are lower bounds). -o json
writes the whole report, range summaries included. It gives up after ` + defaultTimeout.String() + `
unless --timeout says otherwise.`,
		Example: "  gamedata analytics package game/neon-miner -o csv\n  gamedata analytics org acme-works -o json",
		Args:    exactArgs(2, "package KIND/IDENT or org IDENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.common = f.common(cmd, defaultTimeout)
			switch opts.Type = args[0]; opts.Type {
			case "package":
				var err error
				if opts.Kind, opts.Ident, err = splitRef(args[1]); err != nil {
					return err
				}
			case "org", "organization":
				opts.Type, opts.Ident = "org", args[1]
			default:
				return usagef("analytics %q: want package or org", args[0])
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
}

func analyticsRun(ctx context.Context, opts *analyticsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var whole gamedata.Fields
	var history []gamedata.HistoryEntry
	if opts.Type == "package" {
		r, err := c.Analytics.Package(ctx, opts.Kind, opts.Ident)
		if err != nil {
			return err
		}
		whole, history = r.Fields, r.History
	} else {
		r, err := c.Analytics.Organization(ctx, opts.Ident)
		if err != nil {
			return err
		}
		whole, history = r.Fields, r.History
	}
	if opts.Format == "json" {
		return printOne(opts.common, whole, nil, nil)
	}
	records := make([]gamedata.Fields, len(history))
	for i, h := range history {
		records[i] = h.Fields
	}
	return printAll(opts.common, records, historyColumns, nil)
}
