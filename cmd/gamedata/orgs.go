package main

import (
	"context"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
	"github.com/spf13/cobra"
)

// orgsOptions are orgs' options.
type orgsOptions struct {
	common
	directoryFlags
}

func newCmdOrgs(f *factory, runF func(context.Context, *orgsOptions) error) *cobra.Command {
	opts := &orgsOptions{}
	if runF == nil {
		runF = orgsRun
	}
	cmd := &cobra.Command{
		Use:   "orgs",
		Short: "List the directory of organizations that publish games",
		Long: "List a page of the directory of organizations that publish games, or with --all every page from --page on.\n\n" +
			"CSV and table columns: " + printer.ColumnsHelp(printer.OrganizationColumns) + ", then every numeric member found.\n\n" + directoryHelp,
		Example: "  gamedata orgs --sort packages --all",
		Args:    message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := opts.checkPaging("orgs"); err != nil {
				return err
			}
			if err := f.complete(cmd, &opts.common, opts.bound()); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	opts.register(cmd, "ident, name or packages")
	f.addRecordFlags(cmd, &opts.common, dirBound)
	return cmd
}

func orgsRun(ctx context.Context, opts *orgsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	p, err := c.Organizations.List(ctx, &opts.List)
	if err != nil {
		return pastTheEnd(ctx, err, "orgs", opts.List.Page, func(ctx context.Context) (gamedata.Pagination, error) {
			first := opts.List
			first.Page = 1
			p, err := c.Organizations.List(ctx, &first)
			if err != nil {
				return gamedata.Pagination{}, err
			}
			return p.Pagination, nil
		})
	}
	sayServed(opts.common, "orgs", served.Notices(served.Asked{Sort: opts.List.Sort,
		Filters: opts.List.Filters, PageSize: opts.List.PageSize}, p.Fields, p.Pagination))
	err = printDirectory(ctx, opts.common, opts.directoryFlags, printer.OrganizationColumns, "orgs", p.Items, c.Organizations.All(ctx, &opts.List, nil),
		func(o gamedata.Organization) gamedata.Fields { return o.Fields })
	if err == nil {
		sayMorePages(opts.common, opts.directoryFlags, "orgs", p.Pagination)
	}
	return err
}
