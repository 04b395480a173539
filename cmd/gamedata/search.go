package main

import (
	"context"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// searchOptions are search's options.
type searchOptions struct {
	common
	Query string
}

func newCmdSearch(f *factory, runF func(context.Context, *searchOptions) error) *cobra.Command {
	opts := &searchOptions{}
	if runF == nil {
		runF = searchRun
	}
	return &cobra.Command{
		Use:   "search [QUERY]",
		Short: "Search packages, dedicated servers and organizations",
		Long: "Search packages, dedicated servers and organizations; each result is a row with its type in the column \"type\".\n" +
			"It gives up after " + defaultTimeout.String() + " unless --timeout says otherwise.",
		Example: "  gamedata search miner",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("search: want at most one QUERY (quote a query of several words), got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.common = f.common(cmd, defaultTimeout)
			if len(args) == 1 {
				opts.Query = args[0]
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
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
	return printAll(opts.common, records, searchColumns, nil)
}
