package main

import (
	"context"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/record"
	"github.com/spf13/cobra"
)

// searchOptions are search's options.
type searchOptions struct {
	common
	Query  string
	Fields []string
}

func newCmdSearch(f *factory, runF func(context.Context, *searchOptions) error) *cobra.Command {
	opts := &searchOptions{}
	if runF == nil {
		runF = searchRun
	}
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search packages, dedicated servers and organizations",
		Long: `Search packages, dedicated servers and organizations. Each hit is a row
with its type (package, server or organization) and its name (a package's
title, a server's or an organization's name); in JSON each hit is as
sent, with the members "type" and "name" added unless it has them.

CSV and table columns: ` + printer.ColumnsHelp(printer.SearchColumns) + `, then every numeric member
found. It gives up after ` + defaultTimeout.String() + ` unless --timeout says otherwise.`,
		Example: "  gamedata search miner\n  gamedata search miner --jq '.[] | select(.type == \"server\") | .id'",
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) > 1:
				return message.Usagef("search: want one QUERY (quote a query of several words), got %d", len(args))
			case len(args) == 0 || strings.TrimSpace(args[0]) == "":
				// A search for nothing finds nothing: say what to give,
				// not "no results".
				return message.Usagef("search: want a QUERY, such as: gamedata search miner (list and orgs read the directories whole)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.complete(cmd, &opts.common, defaultTimeout); err != nil {
				return err
			}
			opts.Query = args[0]
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringSliceVar(&opts.Fields, "fields", nil, "columns for csv and table, comma-separated")
	f.addRecordFlags(cmd, &opts.common, pageBound)
	return cmd
}

func searchRun(ctx context.Context, opts *searchOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	r, err := c.Search(ctx, &gamedata.SearchOptions{Query: opts.Query})
	if err != nil {
		return err
	}
	records, err := record.Hits(r.Packages, r.Servers, r.Organizations)
	if err != nil {
		return err
	}
	return printAll(ctx, opts.common, records, printer.SearchColumns, opts.Fields)
}
