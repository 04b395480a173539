package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"regexp"
	"strings"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/help"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/version"
	"github.com/spf13/cobra"
)

// run runs the program with args and returns its exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	quietStandardLog()
	return runWith(ctx, newFactory(stdout, stderr), args)
}

// quietStandardLog sends the standard logger's lines nowhere. Only the
// standard library writes there (net/http, of a peer's misbehaviour such
// as a body longer than its Content-Length, on a goroutine of its own
// and at any time): raw, unsanitized text from the service, which would
// follow the command's one line on stderr. What such a misbehaviour
// breaks reaches the command as an error, and is said as one.
func quietStandardLog() { log.SetOutput(io.Discard) }

// runWith runs the program with args on f's streams and returns its exit
// status.
func runWith(ctx context.Context, f *factory, args []string) int {
	defer f.close()
	root := newCmdRoot(f, commands(f)...)
	root.SetArgs(args)
	root.SetOut(f.io.out)
	root.SetErr(f.io.errOut)
	return exitStatus(ctx, f.io.errOut, message.Explain(f.recording.end(root.ExecuteContext(ctx), f.io.errOut), f.reached()))
}

// commands are the program's commands, each running for real.
func commands(f *factory) []*cobra.Command {
	return []*cobra.Command{
		newCmdList(f, nil), newCmdOrgs(f, nil), newCmdGet(f, nil), newCmdSearch(f, nil),
		newCmdActivity(f, nil), newCmdAnalytics(f, nil), newCmdExport(f, nil),
		newCmdChart(f, nil), newCmdSync(f, nil), newCmdWatch(f, nil), newCmdExporter(f, nil),
		newCmdBackfill(f, nil), newCmdPrune(f, nil), newCmdAPI(f, nil),
	}
}

// exitStatus says err on stderr, on one line, and returns the status it
// means: 0 for none, 2 for bad usage, 130 for a command that ctx's end
// (an interrupt: main cancels ctx on SIGINT and SIGTERM) cut short, 1 for
// any other failure. A command whose normal end is an interrupt (watch,
// exporter) returns no error, and exits 0.
func exitStatus(ctx context.Context, stderr io.Writer, err error) int {
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		message.Line(stderr, "%s", message.Interrupted(err))
		return message.ExitInterrupted
	}
	message.Line(stderr, "%s", err.Error())
	if message.IsUsage(err) {
		return 2
	}
	return 1
}

// newCmdRoot is the root command, with the commands given: each takes
// the flags it uses, none the root's.
func newCmdRoot(f *factory, cmds ...*cobra.Command) *cobra.Command {
	root := &cobra.Command{
		Use:   "gamedata",
		Short: "Read the public game-platform data service from a shell",
		Long: `gamedata reads the public, read-only data service of a game platform:
packages (games among them), dedicated servers, organizations, player
activity history and analytics reports.

Without --base-url (or GAMEDATA_BASE_URL) it uses the in-process twin of
the service, offline, and says so on stderr.

Output (-o) is a table on a terminal and NDJSON in a pipe; json, ndjson,
csv and table can be asked for. A null metric is an empty cell in CSV and a
table, and null in JSON: never 0. Text the service sends (values and
member names) reaches a table, a CSV file and stderr sanitized, and JSON
with every control, bidi and invisible character escaped.

Commands that read a record or a page give up after ` + defaultTimeout.String() + ` unless
--timeout says otherwise; long jobs (list --all, orgs --all, export, sync,
watch) have no bound unless --timeout gives one.

Exit status: 0 on success, 1 on a failure, 2 on bad usage, 130 when
interrupted (Ctrl-C), after saying what was kept; watch and exporter,
which run until interrupted, exit 0.

"gamedata help COMMAND" says what a command does and the flags it takes;
"gamedata help environment" lists the environment variables gamedata
reads, GAMEDATA_DEBUG=api among them (a line on stderr for each request
attempt).`,
		Version:                    version.String(),
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += fmt.Sprintf("; did you mean %q?", s[0])
			} else {
				msg += `; "gamedata help" lists the commands`
			}
			return message.UsageError{Err: errors.New(msg)}
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetVersionTemplate("gamedata version {{.Version}}\n")
	root.SetHelpCommand(newCmdHelp())
	help.Wrap(root, func() int { return f.io.width })
	// Every command inherits this: a flag cobra cannot parse is bad usage.
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return message.UsageError{Err: flagError(cmd, err)} })
	root.AddCommand(cmds...)
	root.AddCommand(newCmdEnvironment())
	return root
}

// The errors pflag makes of a flag it cannot parse, which name the flag:
// one the command does not take ("unknown flag: --twin", "unknown
// shorthand flag: 'o' in -o"), a value it cannot read ("invalid argument
// "x" for "--page-size" flag: …") and a value left out ("flag needs an
// argument: --page-size").
var (
	unknownFlag = regexp.MustCompile(`^unknown (?:flag: --([^\s=]+)|shorthand flag: '(.)')`)
	badValue    = regexp.MustCompile(`^invalid argument ("(?:[^"\\]|\\.)*") for "(?:-.(?:, )?)?--([^"]+)" flag`)
	noValue     = regexp.MustCompile(`^flag needs an argument: (?:--(\S+)|'(.)')`)
)

// wants says what a flag of each type takes, for a value pflag refused.
var wants = map[string]string{
	"int":      "a whole number",
	"float64":  "a number",
	"duration": "a duration, such as 30s, 5m or 1h30m",
	"bool":     "true or false",
}

// flagError is err, a flag cmd could not parse, with what to do: a flag
// given before the command's name, where no flag goes, goes after it;
// one the command does not take is in none of the flags its help lists;
// a value it cannot read or left out is said with what the flag takes.
func flagError(cmd *cobra.Command, err error) error {
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		if fl := cmd.Flags().Lookup(m[2]); fl != nil && wants[fl.Value.Type()] != "" {
			return fmt.Errorf("%s --%s %s: want %s", cmd.Name(), m[2], m[1], wants[fl.Value.Type()])
		}
	}
	if m := noValue.FindStringSubmatch(err.Error()); m != nil {
		flag := "--" + m[1]
		if m[1] == "" {
			flag = "-" + m[2]
		}
		return fmt.Errorf("%s %s: give it a value; \"gamedata help %s\" says what it takes", cmd.Name(), flag, cmd.Name())
	}
	m := unknownFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	flag, takes := "--"+m[1], func(c *cobra.Command) bool { return c.Flags().Lookup(m[1]) != nil }
	if m[1] == "" {
		flag, takes = "-"+m[2], func(c *cobra.Command) bool { return c.Flags().ShorthandLookup(m[2]) != nil }
	}
	if cmd.HasParent() {
		return fmt.Errorf("%w: %s does not take it; \"gamedata help %s\" lists the flags it takes", err, cmd.Name(), cmd.Name())
	}
	for _, c := range cmd.Commands() {
		if takes(c) {
			return fmt.Errorf("%w: a command's flag goes after its name, such as: gamedata %s %s", err, c.Name(), flag)
		}
	}
	return fmt.Errorf("%w: no command takes it; \"gamedata help COMMAND\" lists the flags each takes", err)
}

// newCmdHelp is the help command: cobra's, except that a command it does
// not know is bad usage, not the root's help and success.
func newCmdHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Say what a command does and the flags it takes",
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return message.Usagef("help %s: no such command; \"gamedata help\" lists them", message.Safe(strings.Join(args, " ")))
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}
