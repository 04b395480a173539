package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/record"
	"github.com/spf13/cobra"
)

// analyticsOptions are analytics' options: whose report to read, or what
// to search.
type analyticsOptions struct {
	common
	// Type is package, org or search.
	Type string
	// Kind and Ident name a package; Ident an organization.
	Kind, Ident string
	// Query is what to search.
	Query string
	// Range names the range summary to print instead of the history.
	Range string
}

func newCmdAnalytics(f *factory, runF func(context.Context, *analyticsOptions) error) *cobra.Command {
	opts := &analyticsOptions{}
	if runF == nil {
		runF = analyticsRun
	}
	cmd := &cobra.Command{
		Use:   "analytics package KIND/IDENT | analytics org IDENT | analytics search QUERY",
		Short: "An analytics report (its history, or a range summary), or a search of analytics",
		Long: `An analytics report of one package or organization: its history, a row an
entry (` + printer.ColumnsHelp(printer.HistoryColumns) + `, then every numeric
member), with partialCoverage true where the totals are lower bounds.
In CSV and tables capturedAt is in UTC, RFC 3339, so that rows sort by
it; JSON keeps it as sent. -o json writes the whole report.

--range 7d prints the report's summary over that range instead (` + printer.ColumnsHelp(printer.SummaryColumns) + `);
a range the report does not have is refused with the ranges it has.

analytics search QUERY searches the games and organizations that have
analytics, a row a hit, as search does.

It gives up after ` + defaultTimeout.String() + ` unless --timeout says otherwise.`,
		Example: "  gamedata analytics package game/neon-miner -o csv\n  gamedata analytics org acme-works --range 30d\n" +
			"  gamedata analytics search miner",
		Args: message.ExactArgs(2, "package KIND/IDENT, org IDENT or search QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.complete(cmd, &opts.common, defaultTimeout); err != nil {
				return err
			}
			switch opts.Type = args[0]; opts.Type {
			case "package":
				var err error
				if opts.Kind, opts.Ident, err = splitRef(args[1]); err != nil {
					return err
				}
			case "org", "organization":
				opts.Type, opts.Ident = "org", args[1]
				if err := nameable(fmt.Sprintf("analytics org %q", args[1]), args[1]); err != nil {
					return err
				}
			case "search":
				opts.Query = args[1]
				if opts.Range != "" {
					return message.Usagef("analytics search --range: a search has no range summaries")
				}
			default:
				return message.Usagef("analytics %q: want package, org or search", args[0])
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringVar(&opts.Range, "range", "", "print the report's summary over this range, such as 24h, 7d, 30d or 90d, instead of its history")
	f.addRecordFlags(cmd, &opts.common, pageBound)
	return cmd
}

func analyticsRun(ctx context.Context, opts *analyticsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var whole gamedata.Fields
	var history []gamedata.HistoryEntry
	var summaries gamedata.Summaries
	switch opts.Type {
	case "search":
		r, err := c.Analytics.Search(ctx, &gamedata.SearchOptions{Query: opts.Query})
		if err != nil {
			return err
		}
		records, err := record.Hits(r.Packages, nil, r.Organizations)
		if err != nil {
			return err
		}
		return printAll(ctx, opts.common, records, printer.SearchColumns, nil)
	case "package":
		r, err := c.Analytics.Package(ctx, opts.Kind, opts.Ident)
		if err != nil {
			return err
		}
		whole, history, summaries = r.Fields, r.History, r.Summaries
	default:
		r, err := c.Analytics.Organization(ctx, opts.Ident)
		if err != nil {
			return err
		}
		whole, history, summaries = r.Fields, r.History, r.Summaries
	}
	if opts.Range != "" {
		return printSummary(ctx, opts.common, summaries, opts.Range)
	}
	if opts.Format == "json" || opts.Transform != nil {
		return printOne(ctx, opts.common, whole, nil, nil)
	}
	records := make([]gamedata.Fields, len(history))
	for i, h := range history {
		if records[i], err = utcCapturedAt(h); err != nil {
			return err
		}
	}
	return printAll(ctx, opts.common, records, printer.HistoryColumns, nil)
}

// utcCapturedAt is a history entry for a CSV file or a table: its
// capturedAt in UTC, RFC 3339, so that its rows sort by time, whatever
// zone and precision the service wrote it in.
func utcCapturedAt(h gamedata.HistoryEntry) (gamedata.Fields, error) {
	if h.CapturedAt.IsZero() {
		return h.Fields, nil
	}
	at, _ := json.Marshal(h.CapturedAt.UTC().Format(time.RFC3339))
	return record.With(h.Fields, "capturedAt", at)
}

// printSummary prints the summary of range name, a record with its range
// first; a range the report lacks is refused with those it has.
func printSummary(ctx context.Context, c common, summaries gamedata.Summaries, name string) error {
	s, ok := summaries.Range(name)
	if !ok {
		var have []string
		for _, s := range summaries {
			have = append(have, s.Range)
		}
		if len(have) == 0 {
			return message.Usagef("--range %q: the report has no range summaries", name)
		}
		return message.Usagef("--range %q: the report has no summary of that range; it has %s", name, strings.Join(have, ", "))
	}
	r, _ := json.Marshal(s.Range)
	f, err := record.WithMembers(s.Fields, []record.Member{{Name: "range", Value: r}})
	if err != nil {
		return err
	}
	if c.Format == "json" || c.Transform != nil {
		return printOne(ctx, c, f, nil, nil)
	}
	return printAll(ctx, c, []gamedata.Fields{f}, printer.SummaryColumns, nil)
}
