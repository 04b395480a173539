package main

import (
	"context"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
	"github.com/spf13/cobra"
)

// listOptions are list's options.
type listOptions struct {
	common
	directoryFlags
	Kind string
}

func newCmdList(f *factory, runF func(context.Context, *listOptions) error) *cobra.Command {
	opts := &listOptions{}
	if runF == nil {
		runF = listRun
	}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the directory of packages and dedicated servers",
		Long: `List a page of the directory of packages and dedicated servers, or with
--all every page from --page on. --kind game lists games; --kind server
lists dedicated servers.

CSV and table columns: ` + printer.ColumnsHelp(printer.PackageColumns) + ` for packages,
` + printer.ColumnsHelp(printer.ServerColumns) + ` for servers, then every numeric member found.

` + directoryHelp,
		Example: "  gamedata list --kind game --sort players --page-size 10\n" +
			"  gamedata list --kind server --all -o csv > servers.csv\n" +
			"  gamedata list --kind game --filter online,has-players --jq '.[] | .ident'",
		Args: message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.checkPaging("list"); err != nil {
				return err
			}
			if err := f.complete(cmd, &opts.common, opts.bound()); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "a package kind, such as game, or server for dedicated servers")
	opts.register(cmd, "ident, name, players or updated")
	f.addRecordFlags(cmd, &opts.common, dirBound)
	return cmd
}

func listRun(ctx context.Context, opts *listOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	dir := &gamedata.DashboardOptions{Kind: opts.Kind, ListOptions: opts.List}
	known := printer.DirectoryColumns(opts.Kind)
	// The first page says what the service served; a walk reads it once
	// more, which the cache answers with a 304.
	p, err := c.Dashboard.List(ctx, dir)
	if err != nil {
		return pastTheEnd(ctx, err, "list", opts.List.Page, func(ctx context.Context) (gamedata.Pagination, error) {
			first := *dir
			first.Page = 1
			p, err := c.Dashboard.List(ctx, &first)
			if err != nil {
				return gamedata.Pagination{}, err
			}
			return p.Pagination, nil
		})
	}
	sayServed(opts.common, "list", served.Notices(served.Asked{Kind: opts.Kind, Sort: opts.List.Sort,
		Filters: opts.List.Filters, PageSize: opts.List.PageSize}, p.Fields, p.Pagination))
	err = printDirectory(ctx, opts.common, opts.directoryFlags, known, "list", p.Items, c.Dashboard.All(ctx, dir, nil),
		func(e gamedata.DashboardEntry) gamedata.Fields { return e.Fields })
	if err == nil {
		sayMorePages(opts.common, opts.directoryFlags, "list", p.Pagination)
	}
	return err
}
