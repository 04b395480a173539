package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/watch"
	"github.com/spf13/cobra"
)

// watchOptions are watch's options.
type watchOptions struct {
	common
	// Kind is the directory's kind, when no package is named.
	Kind string
	// Every is how often each thing is polled.
	Every time.Duration
	// Refs are the packages named; none watches the directory.
	Refs []gamedata.PackageRef
}

func newCmdWatch(f *factory, runF func(context.Context, *watchOptions) error) *cobra.Command {
	opts := &watchOptions{}
	if runF == nil {
		runF = watchRun
	}
	cmd := &cobra.Command{
		Use:   "watch [package KIND/IDENT ...]",
		Short: "Print a line a change until interrupted",
		Long: `Watch the directory (--kind), or the packages named, polling every --every
with conditional requests, and print one line a change as soon as it is
seen, until interrupted. On a terminal a first line on stderr says what
is watched and how often, and each change is a line for a person: its
op, the identity and title, and for an update the members that changed,
old → new. In a pipe (or with -o ndjson) each is an NDJSON line:
{"op": "added"|"updated"|"removed", "old": ..., "new": ...}. The first
round reports everything as added. A failed poll is said on stderr and
the watch goes on.

What it cannot see is said on stderr, once each time it changes: a
package that is not found (at the first poll, and whenever it goes or
comes back), the first failed poll of a streak and the poll that ends
it, and a poll the service delays with Retry-After. An unsupported
--kind is said too. --jq and --template apply to each change line.

watch has no time bound unless --timeout gives one.`,
		Example: "  gamedata watch --kind game --every 1m\n  gamedata watch package game/neon-miner game/space-miner",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return err
			}
			var err error
			if opts.Refs, err = watchRefs(args); err != nil {
				return err
			}
			if len(opts.Refs) > 0 && opts.Kind != "" {
				return message.Usagef("watch package … --kind: the packages named are watched, not a directory; leave --kind out, or the packages to watch the directory")
			}
			if opts.Every <= 0 {
				return message.Usagef("watch --every %v: want more than 0", opts.Every)
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "the directory's kind, when no package is named")
	cmd.Flags().DurationVar(&opts.Every, "every", time.Minute, "how often each thing is polled")
	f.addServiceFlags(cmd, &opts.common)
	opts.addOutputFlag(cmd, "table on a terminal, ndjson otherwise", "table", "ndjson")
	opts.addTimeoutFlag(cmd, noBound)
	opts.TransformFlags.Register(cmd)
	return cmd
}

// watchRefs are the packages args name: "package" and one or more
// KIND/IDENT after it, as often as wanted.
func watchRefs(args []string) ([]gamedata.PackageRef, error) {
	var refs []gamedata.PackageRef
	for i, a := range args {
		if a == "package" {
			if i == len(args)-1 || args[i+1] == "package" {
				return nil, message.Usagef("watch: package needs one or more KIND/IDENT after it")
			}
			continue
		}
		if i == 0 {
			return nil, message.Usagef("watch %q: want package KIND/IDENT ...", a)
		}
		kind, ident, err := splitRef(a)
		if err != nil {
			return nil, err
		}
		refs = append(refs, gamedata.PackageRef{Kind: kind, Ident: ident})
	}
	return refs, nil
}

// change is one line of watch's output.
type change struct {
	Op  string          `json:"op"`
	Old json.RawMessage `json:"old"`
	New json.RawMessage `json:"new"`
}

func watchRun(ctx context.Context, opts *watchOptions) error {
	if opts.Format == "table" && opts.Transform == nil {
		message.Line(opts.IO.errOut, "%s", watch.Header(opts.Kind, opts.Refs, opts.Every))
	}
	status := watch.DirectoryStatus(opts.IO.errOut, opts.Kind)
	if len(opts.Refs) > 0 {
		status = watch.PackageStatus(opts.IO.errOut, opts.Refs)
	}
	c, err := opts.Client(status.Transport)
	if err != nil {
		return err
	}
	if len(opts.Refs) > 0 {
		return watchPackages(ctx, c, opts, status)
	}
	return watchDirectory(ctx, c, opts, status)
}

// watchPackages prints the changes of the packages opts names until ctx
// ends; a failed poll is status's to say.
func watchPackages(ctx context.Context, c *gamedata.Client, opts *watchOptions, status *watch.Status) error {
	for ch, err := range c.Packages.Watch(ctx, opts.Refs, opts.Every) {
		if err != nil {
			if ctx.Err() == nil {
				status.Failed(itemIndex(err), err)
			}
			continue
		}
		if err := printChange(ctx, opts, ch.Op, fieldsOrZero(ch.Old), fieldsOrZero(ch.New)); err != nil {
			return err
		}
	}
	return nil // interrupted: the watch is over, not failed
}

// watchDirectory prints the changes of the directory of opts.Kind until
// ctx ends; a failed round is status's to say.
func watchDirectory(ctx context.Context, c *gamedata.Client, opts *watchOptions, status *watch.Status) error {
	dir := &gamedata.DashboardOptions{Kind: opts.Kind}
	if opts.Kind != "" {
		// The first page says whether the service lists the kind asked
		// for; the watch's first round reads it again (a 304). A failure
		// is the watch's to say.
		if p, err := c.Dashboard.List(ctx, dir); err == nil {
			sayServed(opts.common, "watch", served.Notices(served.Asked{Kind: opts.Kind}, p.Fields, p.Pagination))
		}
	}
	for ch, err := range c.Dashboard.Watch(ctx, dir, opts.Every) {
		if err != nil {
			if ctx.Err() == nil {
				status.Failed(0, err)
			}
			continue
		}
		status.Changed(0)
		if err := printChange(ctx, opts, ch.Op, ch.Old.Fields, ch.New.Fields); err != nil {
			return err
		}
	}
	return nil
}

// printChange writes one change line, through --jq or --template when
// one is given.
func printChange(ctx context.Context, opts *watchOptions, op gamedata.Op, old, new gamedata.Fields) error {
	if opts.Format == "table" && opts.Transform == nil {
		_, err := fmt.Fprintln(opts.IO.out, watch.ChangeLine(op.String(), old, new, opts.IO.width))
		return err
	}
	line, err := json.Marshal(change{Op: op.String(), Old: orNull(old), New: orNull(new)})
	if err != nil {
		return err
	}
	if opts.Transform != nil {
		return opts.Transform.Apply(ctx, line)
	}
	_, err = opts.IO.out.Write(append(line, '\n'))
	return err
}

// itemIndex is the index of the package a failed poll polled, or -1.
func itemIndex(err error) int {
	var ie *gamedata.ItemError
	if errors.As(err, &ie) {
		return ie.Index
	}
	return -1
}

func fieldsOrZero(p *gamedata.Package) gamedata.Fields {
	if p == nil {
		return gamedata.Fields{}
	}
	return p.Fields
}

// orNull is a record's JSON, safe to print, or null.
func orNull(f gamedata.Fields) json.RawMessage {
	if f.JSON() == nil {
		return json.RawMessage("null")
	}
	line, err := printer.JSONLine(f)
	if err != nil {
		return json.RawMessage("null")
	}
	return line
}
