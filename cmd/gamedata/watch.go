package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// change is one line of watch's output.
type change struct {
	Op  string          `json:"op"`
	Old json.RawMessage `json:"old"`
	New json.RawMessage `json:"new"`
}

func (a *app) watchCommand() *cobra.Command {
	var kind string
	var every time.Duration
	cmd := &cobra.Command{
		Use:   "watch [package KIND/IDENT ...]",
		Short: "Print changes as NDJSON lines until interrupted",
		Long: `Watch the directory (--kind), or the packages named, polling every --every
with conditional requests, and print one NDJSON line a change until
interrupted: {"op": "added"|"updated"|"removed", "old": ..., "new": ...}.
The first round reports everything as added. A failed poll is said on
stderr and the watch goes on.`,
		Example: "  gamedata watch --kind game --every 1m\n  gamedata watch package game/neon-miner package game/space-miner",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args)%2 != 0 {
				return usageError{fmt.Errorf("watch: want package KIND/IDENT pairs, got %d argument(s)", len(args))}
			}
			for i := 0; i < len(args); i += 2 {
				if args[i] != "package" {
					return usageError{fmt.Errorf("watch %q: want package KIND/IDENT", args[i])}
				}
			}
			if every <= 0 {
				return usageError{fmt.Errorf("watch --every %v: want more than 0", every)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var refs []gamedata.PackageRef
			for i := 1; i < len(args); i += 2 {
				kind, ident, err := splitRef(args[i])
				if err != nil {
					return err
				}
				refs = append(refs, gamedata.PackageRef{Kind: kind, Ident: ident})
			}
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(a.stdout)
			report := func(op gamedata.Op, old, new gamedata.Fields, err error) error {
				if err != nil {
					if ctx.Err() != nil {
						return nil
					}
					fmt.Fprintf(a.stderr, "gamedata: watch: %s\n", oneLine(err))
					return nil
				}
				return enc.Encode(change{Op: op.String(), Old: orNull(old), New: orNull(new)})
			}
			if len(refs) > 0 {
				for ch, err := range c.Packages.Watch(ctx, refs, every) {
					if err := report(ch.Op, fieldsOrZero(ch.Old), fieldsOrZero(ch.New), err); err != nil {
						return err
					}
				}
			} else {
				for ch, err := range c.Dashboard.Watch(ctx, &gamedata.DashboardOptions{Kind: kind}, every) {
					if err := report(ch.Op, ch.Old.Fields, ch.New.Fields, err); err != nil {
						return err
					}
				}
			}
			return nil // interrupted: the watch is over, not failed
		},
	}
	cmd.Flags().StringVar(&kind, "kind", "", "the directory's kind, when no package is named")
	cmd.Flags().DurationVar(&every, "every", time.Minute, "how often each thing is polled")
	return cmd
}

func fieldsOrZero(p *gamedata.Package) gamedata.Fields {
	if p == nil {
		return gamedata.Fields{}
	}
	return p.Fields
}

// orNull is a record's JSON with terminal controls escaped, or null.
func orNull(f gamedata.Fields) json.RawMessage {
	if f.JSON() == nil {
		return json.RawMessage("null")
	}
	line, err := jsonLine(f)
	if err != nil {
		return json.RawMessage("null")
	}
	return line
}
