package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/spf13/cobra"
)

// getOptions are get's options: what to read, and its identifiers.
type getOptions struct {
	common
	// Type is package, server or org.
	Type string
	// Kind and Ident name a package; Ident an organization; ID a server.
	Kind, Ident, ID string
	// Fields are the members to show; none shows every one.
	Fields []string
}

func newCmdGet(f *factory, runF func(context.Context, *getOptions) error) *cobra.Command {
	opts := &getOptions{}
	if runF == nil {
		runF = getRun
	}
	cmd := &cobra.Command{
		Use:   "get package KIND/IDENT | get server ID | get org IDENT",
		Short: "Read one package, dedicated server or organization",
		Long: `Read one package, dedicated server or organization. On a terminal (or
with -o table) every member is a line, its name and its value: null is
shown as null, a list an element a line. -o csv is a header and a row of
every member, in the order sent (a list or object as its JSON text);
-o json the record as sent, indented on a terminal. --fields names the
members to show. It gives up after ` + defaultTimeout.String() + ` unless --timeout says
otherwise.`,
		Example: "  gamedata get package game/neon-miner\n  gamedata get server 192.0.2.105:27015 -o json\n" +
			"  gamedata get org acme-works --fields name,packages",
		Args: message.ExactArgs(2, "package KIND/IDENT, server ID or org IDENT"),
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
			case "server":
				opts.ID = args[1]
			case "org", "organization":
				opts.Type, opts.Ident = "org", args[1]
			default:
				return message.Usagef("get %q: want package, server or org", args[0])
			}
			if err := nameable(fmt.Sprintf("get %s %q", opts.Type, args[1]), args[1]); err != nil {
				return err
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringSliceVar(&opts.Fields, "fields", nil, "the members to show, comma-separated, in every format (default: every one)")
	f.addRecordFlags(cmd, &opts.common, pageBound)
	return cmd
}

func getRun(ctx context.Context, opts *getOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var f gamedata.Fields
	var known []string
	switch opts.Type {
	case "package":
		p, err := c.Packages.Get(ctx, opts.Kind, opts.Ident)
		if err != nil {
			return notOnTheService(ctx, c, err)
		}
		f, known = p.Fields, printer.PackageColumns
	case "server":
		s, err := c.Servers.Get(ctx, opts.ID)
		if err != nil {
			return notOnTheService(ctx, c, err)
		}
		f, known = s.Fields, printer.ServerColumns
	default:
		o, err := c.Organizations.Get(ctx, opts.Ident)
		if err != nil {
			return notOnTheService(ctx, c, err)
		}
		f, known = o.Fields, printer.OrganizationColumns
	}
	return printOne(ctx, opts.common, f, known, opts.Fields)
}

// notOnTheService is err, a failed read of one record, unless the
// service's directory is not found either: then every call is a 404, the
// base URL is at fault, not the record, and the directory's error (which
// explain says so of) is returned instead.
func notOnTheService(ctx context.Context, c *gamedata.Client, err error) error {
	if !errors.Is(err, gamedata.ErrNotFound) {
		return err
	}
	_, derr := c.Dashboard.List(ctx, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: 1}})
	if errors.Is(derr, gamedata.ErrNotFound) {
		return derr
	}
	return err
}

// printOne writes one record, only the members fields names when it
// names some: as a JSON document for json (indented on a terminal) and
// through --jq or --template (which see every member), as a header and a row for
// csv (every member, in the record's order, unless fields names some),
// and a member a line otherwise.
func printOne(ctx context.Context, c common, f gamedata.Fields, known, fields []string) error {
	switch {
	case c.Transform != nil:
		return c.Transform.Apply(ctx, f.JSON())
	case c.Format == "json":
		if fields != nil {
			if err := printer.CheckFields(fields, known, []gamedata.Fields{f}); err != nil {
				return err
			}
			var err error
			if f, err = printer.SelectMembers(f, fields); err != nil {
				return err
			}
		}
		return c.printJSON(f.JSON())
	case c.Format == "table":
		if fields != nil {
			if err := printer.CheckFields(fields, known, []gamedata.Fields{f}); err != nil {
				return err
			}
		}
		return printer.WriteMembers(c.IO.out, f, fields, c.IO.width)
	case c.Format == "csv" && fields == nil:
		// One record: every member is a column, none chosen away.
		fields = printer.MemberOrder(f)
	}
	return printAll(ctx, c, []gamedata.Fields{f}, known, fields)
}

// splitRef splits KIND/IDENT at its first slash: an ident may hold more.
func splitRef(ref string) (kind, ident string, err error) {
	kind, ident, ok := strings.Cut(ref, "/")
	if !ok || kind == "" || ident == "" {
		return "", "", message.Usagef("package %q: want KIND/IDENT, such as game/neon-miner", ref)
	}
	if err := nameable("package "+ref, kind, ident); err != nil {
		return "", "", err
	}
	return kind, ident, nil
}

// nameable refuses, before anything starts, an identifier no request
// can name: an empty one, and "." or "..", which a URL's path reads as
// this directory or the one above it (the library refuses them too, but
// only once the command has started its client). what names the
// argument.
func nameable(what string, ids ...string) error {
	for _, id := range ids {
		switch id {
		case "":
			return message.Usagef("%s: an empty identifier names no record; give one", what)
		case ".", "..":
			return message.Usagef("%s: %q is a path's dot segment, which no request can name; check the identifier", what, id)
		}
	}
	return nil
}
