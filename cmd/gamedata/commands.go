package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// listFlags are the flags of a directory command.
type listFlags struct {
	gamedata.ListOptions
	all    bool
	fields []string
}

func (l *listFlags) register(cmd *cobra.Command, sorts string) {
	f := cmd.Flags()
	f.StringVar(&l.Sort, "sort", "", "order, such as "+sorts+"; the service orders an unknown sort by its default, silently")
	f.StringArrayVar(&l.Filters, "filter", nil, "a filter; repeat to combine; the service ignores an unknown one")
	f.IntVar(&l.Page, "page", 1, "the page, from 1")
	f.IntVar(&l.PageSize, "page-size", 0, "entries a page, at most 100 (0: the service's default)")
	f.BoolVar(&l.all, "all", false, "every page, from --page on")
	f.StringSliceVar(&l.fields, "fields", nil, "columns for csv and table, comma-separated (default: identifiers, title and numeric metrics)")
}

func (a *app) listCommand() *cobra.Command {
	var l listFlags
	var kind string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the directory of packages and dedicated servers",
		Long: `List a page of the directory of packages and dedicated servers, or with
--all every page from --page on. --kind game lists games; --kind server
lists dedicated servers.`,
		Example: "  gamedata list --kind game --sort players --page-size 10\n  gamedata list --kind server --all -o csv > servers.csv",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			opts := &gamedata.DashboardOptions{Kind: kind, ListOptions: l.ListOptions}
			if !l.all {
				p, err := c.Dashboard.List(ctx, opts)
				if err != nil {
					return err
				}
				return a.printAll(entryFields(p.Items), l.fields)
			}
			var records []gamedata.Fields
			for e, err := range c.Dashboard.All(ctx, opts) {
				if err != nil {
					return err
				}
				records = append(records, e.Fields)
			}
			return a.printAll(records, l.fields)
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "a package kind, such as game, or server for dedicated servers")
	l.register(cmd, "ident, name, players or updated")
	return cmd
}

func entryFields(items []gamedata.DashboardEntry) []gamedata.Fields {
	out := make([]gamedata.Fields, len(items))
	for i, e := range items {
		out[i] = e.Fields
	}
	return out
}

func (a *app) orgsCommand() *cobra.Command {
	var l listFlags
	cmd := &cobra.Command{
		Use:     "orgs",
		Short:   "List the directory of organizations that publish games",
		Example: "  gamedata orgs --sort packages --all",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			var records []gamedata.Fields
			if !l.all {
				p, err := c.Organizations.List(ctx, &l.ListOptions)
				if err != nil {
					return err
				}
				for _, o := range p.Items {
					records = append(records, o.Fields)
				}
				return a.printAll(records, l.fields)
			}
			for o, err := range c.Organizations.All(ctx, &l.ListOptions) {
				if err != nil {
					return err
				}
				records = append(records, o.Fields)
			}
			return a.printAll(records, l.fields)
		},
	}
	l.register(cmd, "ident, name or packages")
	return cmd
}

func (a *app) getCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "get package KIND/IDENT | get server ID | get org IDENT",
		Short: "Read one package, dedicated server or organization",
		Example: "  gamedata get package game/neon-miner\n  gamedata get server 192.0.2.105:27015 -o json\n" +
			"  gamedata get org acme-works",
		Args: exactArgs(2, "package KIND/IDENT, server ID or org IDENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			var f gamedata.Fields
			switch args[0] {
			case "package":
				kind, ident, err := splitRef(args[1])
				if err != nil {
					return err
				}
				p, err := c.Packages.Get(ctx, kind, ident)
				if err != nil {
					return err
				}
				f = p.Fields
			case "server":
				s, err := c.Servers.Get(ctx, args[1])
				if err != nil {
					return err
				}
				f = s.Fields
			case "org", "organization":
				o, err := c.Organizations.Get(ctx, args[1])
				if err != nil {
					return err
				}
				f = o.Fields
			default:
				return usageError{fmt.Errorf("get %q: want package, server or org", args[0])}
			}
			return a.printOne(f)
		},
	}
	return cmd
}

// printOne writes one record: as a JSON document for json, and as a row
// otherwise.
func (a *app) printOne(f gamedata.Fields) error {
	if a.format() == "json" {
		line, err := jsonLine(f)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.stdout, "%s\n", line)
		return err
	}
	return a.printAll([]gamedata.Fields{f}, nil)
}

// splitRef splits KIND/IDENT at its first slash: an ident may hold more.
func splitRef(ref string) (kind, ident string, err error) {
	kind, ident, ok := strings.Cut(ref, "/")
	if !ok || kind == "" || ident == "" {
		return "", "", usageError{fmt.Errorf("package %q: want KIND/IDENT, such as game/neon-miner", ref)}
	}
	return kind, ident, nil
}

func (a *app) searchCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "search [QUERY]",
		Short:   "Search packages, dedicated servers and organizations",
		Long:    "Search packages, dedicated servers and organizations; each result is a row with its type in the column \"type\".",
		Example: "  gamedata search miner",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageError{fmt.Errorf("search: want at most one QUERY (quote a query of several words), got %d", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			q := ""
			if len(args) == 1 {
				q = args[0]
			}
			r, err := c.Search(ctx, &gamedata.SearchOptions{Query: q})
			if err != nil {
				return err
			}
			var records []gamedata.Fields
			for _, p := range r.Packages {
				records = append(records, p.Fields)
			}
			for _, s := range r.Servers {
				records = append(records, s.Fields)
			}
			for _, o := range r.Organizations {
				records = append(records, o.Fields)
			}
			return a.printAll(records, nil)
		},
	}
}

func (a *app) activityCommand() *cobra.Command {
	var rng string
	cmd := &cobra.Command{
		Use:   "activity",
		Short: "The platform's player activity history, a row a point",
		Long: `The player activity history of the whole platform, across every game, a
row a point: its time, players (empty when unavailable, never 0), whether
it is an average or a snapshot, and whether its coverage is partial (a
lower bound, never a complete total).`,
		Example: "  gamedata activity --range 24h -o csv",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: rng})
			if err != nil {
				return err
			}
			records := make([]gamedata.Fields, 0, len(h.Points))
			for _, p := range h.Points {
				f, err := fieldsOf(pointRow(p))
				if err != nil {
					return err
				}
				records = append(records, f)
			}
			return a.printAll(records, []string{"time", "players", "aggregation", "partialCoverage", "current", "intervalStart", "intervalEnd"})
		},
	}
	cmd.Flags().StringVar(&rng, "range", gamedata.Range7d, "time range, such as 24h, 7d or 30d")
	return cmd
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

func (a *app) analyticsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "analytics package KIND/IDENT | analytics org IDENT",
		Short: "An analytics report: its history, a row an entry",
		Long: `An analytics report of one package or organization: its history, a row an
entry, with partialCoverage (true: the totals are lower bounds). -o json
writes the whole report, range summaries included.`,
		Example: "  gamedata analytics package game/neon-miner -o csv\n  gamedata analytics org acme-works -o json",
		Args:    exactArgs(2, "package KIND/IDENT or org IDENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			var whole gamedata.Fields
			var history []gamedata.HistoryEntry
			switch args[0] {
			case "package":
				kind, ident, err := splitRef(args[1])
				if err != nil {
					return err
				}
				r, err := c.Analytics.Package(ctx, kind, ident)
				if err != nil {
					return err
				}
				whole, history = r.Fields, r.History
			case "org", "organization":
				r, err := c.Analytics.Organization(ctx, args[1])
				if err != nil {
					return err
				}
				whole, history = r.Fields, r.History
			default:
				return usageError{fmt.Errorf("analytics %q: want package or org", args[0])}
			}
			if a.format() == "json" {
				return a.printOne(whole)
			}
			records := make([]gamedata.Fields, len(history))
			for i, h := range history {
				records[i] = h.Fields
			}
			return a.printAll(records, nil)
		},
	}
}
