package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/spf13/cobra"
	"golang.org/x/time/rate"
)

// app is one run of the program: its streams, its global flags and the
// client they make.
type app struct {
	stdout, stderr io.Writer
	// stdoutTTY and stderrTTY say whether the streams are terminals: the
	// table format and the progress bar are for people, never for pipes.
	stdoutTTY, stderrTTY bool

	baseURL  string
	twin     bool
	rate     float64
	cacheDir string
	output   string
	timeout  time.Duration

	server *gamedatatest.Server // the in-process twin, when it serves
	client *gamedata.Client
	cancel []context.CancelFunc // of --timeout contexts, called by close
}

// usageError is bad usage: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// run runs the program with args and returns its exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, stdoutTTY: isTerminal(stdout), stderrTTY: isTerminal(stderr)}
	defer a.close()
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "gamedata: "+strings.TrimPrefix(oneLine(err), "gamedata: "))
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, gamedata.ErrInvalidArgument) || strings.HasPrefix(err.Error(), "unknown command") {
		fmt.Fprintln(stderr, `Run "gamedata help" for usage.`)
		return 2
	}
	return 1
}

func (a *app) rootCommand() *cobra.Command {
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
table, and null in JSON: never 0. Publisher text on a terminal is shown
sanitized.

Exit status: 0 on success, 1 on a failure, 2 on bad usage.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return a.checkGlobals()
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	f := root.PersistentFlags()
	f.StringVar(&a.baseURL, "base-url", os.Getenv("GAMEDATA_BASE_URL"), "the service's base URL (default $GAMEDATA_BASE_URL; without one, the in-process twin)")
	f.BoolVar(&a.twin, "twin", false, "use the in-process twin of the service, offline, even when a base URL is set")
	f.Float64Var(&a.rate, "rate", 5, "requests a second at most; 0 for no client-side limit")
	f.StringVar(&a.cacheDir, "cache-dir", "", "keep responses in this directory between runs and revalidate them (conditional requests)")
	f.StringVarP(&a.output, "output", "o", "", "output format: json, ndjson, csv or table (default table on a terminal, ndjson otherwise)")
	f.DurationVar(&a.timeout, "timeout", 0, "give up on the whole command after this long (0: no limit)")
	root.AddCommand(a.listCommand(), a.orgsCommand(), a.getCommand(), a.searchCommand(),
		a.activityCommand(), a.analyticsCommand(), a.exportCommand(), a.chartCommand(), a.syncCommand(), a.watchCommand(),
		a.exporterCommand())
	for _, c := range root.Commands() {
		c.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	}
	return root
}

// checkGlobals refuses bad global flags before anything is sent.
func (a *app) checkGlobals() error {
	switch a.output {
	case "", "json", "ndjson", "csv", "table":
	default:
		return usageError{fmt.Errorf("-o %q: want json, ndjson, csv or table", a.output)}
	}
	if a.rate < 0 {
		return usageError{fmt.Errorf("--rate %v: want 0 (no limit) or more", a.rate)}
	}
	if a.timeout < 0 {
		return usageError{fmt.Errorf("--timeout %v: want 0 (no limit) or more", a.timeout)}
	}
	return nil
}

// format is the output format in force.
func (a *app) format() string {
	switch {
	case a.output != "":
		return a.output
	case a.stdoutTTY:
		return "table"
	}
	return "ndjson"
}

// connect returns the client, made on first use, and the context of the
// command, bounded by --timeout.
func (a *app) connect(cmd *cobra.Command) (context.Context, *gamedata.Client, error) {
	ctx := cmd.Context()
	if a.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.timeout)
		a.cancel = append(a.cancel, cancel)
	}
	if a.client != nil {
		return ctx, a.client, nil
	}
	limit := rate.Limit(a.rate)
	if a.rate == 0 {
		limit = rate.Inf
	}
	opts := []gamedata.Option{gamedata.WithRateLimit(limit, 1), gamedata.WithUserAgent("gamedata-cli/" + gamedata.Version)}
	cacheOpt, err := a.cacheOption()
	if err != nil {
		return nil, nil, err
	}
	opts = append(opts, cacheOpt...)
	base := a.baseURL
	if a.twin || base == "" {
		a.server = gamedatatest.NewServer()
		base = a.server.URL
		fmt.Fprintf(a.stderr, "gamedata: no --base-url given; using the in-process twin of the service (gamedatatest) at %s\n", base)
	}
	c, err := gamedata.NewClient(base, opts...)
	if err != nil {
		if errors.Is(err, gamedata.ErrInvalidArgument) {
			return nil, nil, usageError{err}
		}
		return nil, nil, err
	}
	a.client = c
	return ctx, c, nil
}

func (a *app) close() {
	for _, cancel := range a.cancel {
		cancel()
	}
	if a.server != nil {
		a.server.Close()
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// oneLine keeps an error to one line for stderr.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// exactArgs is cobra.ExactArgs whose error is bad usage.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("%s: want %s, got %d argument(s)", cmd.CommandPath(), what, len(args))}
		}
		return nil
	}
}
