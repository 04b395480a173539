package main

import (
	"context"

	"github.com/gamedata-go/gamedata"
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
			"CSV and table columns: " + columnsHelp(organizationColumns) + ", then every numeric member found.\n\n" + directoryHelp,
		Example: "  gamedata orgs --sort packages --all",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.common = f.common(cmd, opts.bound())
			if err := checkFieldsFormat(opts.common, opts.Fields); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	opts.register(cmd, "ident, name or packages")
	return cmd
}

func orgsRun(ctx context.Context, opts *orgsOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	p, err := c.Organizations.List(ctx, &opts.List)
	if err != nil {
		return err
	}
	sayServed(opts.common, "orgs", servedNotices(askedDirectory{sort: opts.List.Sort,
		filters: opts.List.Filters, pageSize: opts.List.PageSize}, p.Fields, p.Pagination))
	if !opts.All {
		records := make([]gamedata.Fields, len(p.Items))
		for i, o := range p.Items {
			records[i] = o.Fields
		}
		return printAll(opts.common, records, organizationColumns, opts.Fields)
	}
	w := walkWriter(opts.common, opts.directoryFlags, organizationColumns, "orgs")
	n := 0
	for o, err := range c.Organizations.All(ctx, &opts.List) {
		if err == nil {
			n++
			err = w.write(o.Fields)
		}
		if err != nil {
			w.close() // what was read is whole: print it
			return withKept(err, "%s printed, each whole", plural(n, "record"))
		}
	}
	if err := w.close(); err != nil {
		return err
	}
	opts.noResults(n)
	return nil
}
