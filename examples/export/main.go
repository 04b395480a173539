// Command export walks a whole directory of the service and writes every
// entry as JSON Lines or CSV, to stdout or to a file.
//
//	go run ./examples/export -kind game -format jsonl
//	go run ./examples/export -kind server -sort players -filter online -format csv -o servers.csv
//	go run ./examples/export -kind game -details -o games.jsonl
//
// Without -base-url it starts an in-process twin of the service
// (gamedatatest) and says so on stderr.
//
// The export is written a whole page at a time. When it stops early (an
// error, or Ctrl-C), it names the page to resume from; running it again with
// the same flags plus -resume-page appends the rest to the same -o file, so
// nothing is lost or written twice. Resume with the same -page-size, and
// expect a directory that changes between the runs to shift entries across
// pages.
//
// JSON Lines keep every record exactly as the service sent it (compacted,
// with control and bidi characters written as \u escapes, so the file is
// safe to print). CSV is for people and spreadsheets: publisher text goes
// through Untrusted.String, a null metric is an empty cell, never 0.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/examples/internal/cli"
)

// options are the parsed flags.
type options struct {
	baseURL    string
	kind, sort string
	filters    []string
	format     string
	out        string
	details    bool
	resumePage int
	pageSize   int
	rate       float64
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.baseURL, "base-url", "", "base URL of the service; empty starts an in-process twin")
	fs.StringVar(&o.kind, "kind", "", `package kind, such as "game", or "server"; empty lists every package`)
	fs.StringVar(&o.sort, "sort", "", "sort order, such as players or name; empty is the service's default")
	fs.Func("filter", "filter, such as online or org:<ident>; repeat to combine", func(s string) error {
		o.filters = append(o.filters, s)
		return nil
	})
	fs.StringVar(&o.format, "format", "jsonl", "output format: jsonl or csv")
	fs.StringVar(&o.out, "o", "", "output file; empty writes to stdout")
	fs.BoolVar(&o.details, "details", false, "fetch each entry's detail record and write it instead of the entry")
	fs.IntVar(&o.resumePage, "resume-page", 1, "first page to export; with -o, appends to the file")
	fs.IntVar(&o.pageSize, "page-size", 100, "entries per page, 1 to 100; keep it when resuming")
	fs.Float64Var(&o.rate, "rate", 5, "client-side limit, requests a second; 0 for none (the in-process twin is never limited)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	case o.format != "jsonl" && o.format != "csv":
		return nil, fmt.Errorf("-format %q: want jsonl or csv", o.format)
	case o.resumePage < 1:
		return nil, fmt.Errorf("-resume-page %d: pages are numbered from 1", o.resumePage)
	case o.pageSize < 1 || o.pageSize > 100:
		return nil, fmt.Errorf("-page-size %d: want 1 to 100", o.pageSize)
	case o.rate < 0:
		return nil, fmt.Errorf("-rate %g: want 0 or more", o.rate)
	}
	return o, nil
}

func main() { cli.Main("export", run) }

// run is the whole program, with its arguments and outputs passed in.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	client, _, stop, err := cli.Connect("export", o.baseURL, stderr, gamedata.WithRateLimit(rateLimit(o.rate)))
	if err != nil {
		return err
	}
	defer stop()

	w, closeOut, err := output(o, stdout)
	if err != nil {
		return err
	}
	err = export(ctx, client, o, w, stderr)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	return err
}

// output opens where the export goes: stdout, a new file, or, when
// resuming, the end of an existing one. needsHeader says whether the output
// starts empty.
func output(o *options, stdout io.Writer) (w *sink, closeOut func() error, err error) {
	if o.out == "" {
		return &sink{w: stdout, fresh: o.resumePage == 1}, func() error { return nil }, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if o.resumePage > 1 {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(o.out, flags, 0o644)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return &sink{w: f, fresh: info.Size() == 0}, f.Close, nil
}

// sink is the output: fresh while nothing has been written to it, so a CSV
// header goes first.
type sink struct {
	w     io.Writer
	fresh bool
}

// resumeHint is how to continue an export that stopped before page.
func resumeHint(o *options, page int) string {
	hint := fmt.Sprintf("-resume-page %d", page)
	if o.pageSize != 100 {
		hint += fmt.Sprintf(" -page-size %d", o.pageSize)
	}
	if o.out == "" {
		return "run again with the same flags and " + hint + ", and append its output to what was written"
	}
	return "run again with the same flags and " + hint + " (it appends to " + strings.ReplaceAll(o.out, "\n", " ") + ")"
}

// rateLimit is the client's rate limit for -rate requests a second, 0
// meaning none.
func rateLimit(perSecond float64) (rate.Limit, int) {
	if perSecond == 0 {
		return rate.Inf, 1
	}
	return rate.Limit(perSecond), max(1, int(perSecond))
}
