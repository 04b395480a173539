package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// exportOptions are export's options.
type exportOptions struct {
	common
	Kind, Sort      string
	Filters, Fields []string
	// Out is the file to write, or "" for stdout.
	Out string
	// Resume continues the cut export in Out.
	Resume      bool
	Concurrency int
}

func newCmdExport(f *factory, runF func(context.Context, *exportOptions) error) *cobra.Command {
	opts := &exportOptions{}
	if runF == nil {
		runF = exportRun
	}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export every entry of a directory with its detail record, to CSV or NDJSON",
		Long: `Export every entry of the directory (--kind game by default) with its
detail record, fetched concurrently within the rate limit, as CSV or NDJSON
(-o; NDJSON by default). A null metric is an empty CSV cell and null in
NDJSON, never 0. On a terminal, stderr shows a progress bar: items done,
rate and time left.

Ctrl-C stops cleanly: every row written is complete. --resume, with
--out, continues a cut export into the same file: a last line cut in the
middle is dropped, the header is kept (or written if it was cut), and
every record whose identity is already in the file is left out, so each
is written exactly once.

In CSV, the identity columns (kind, ident, id) and the header are written
in an exact form that reads back unchanged, so that no two identities
look alike: a backslash is written \\, a character the sanitizer would
remove or change (a control, tab or line break, a bidi or invisible
character) is written \uXXXX (\UXXXXXXXX above U+FFFF), a byte that is
not UTF-8 \xXX, and a cell that begins with =, +, @, ' or a - that is not
a number gets a leading ' (so a leading ' always comes off). Other
cells are sanitized and get the same guard. In NDJSON every record is as
sent, with such characters escaped as \u in its strings.

An entry no request can name (the ident "..") is skipped, and said so.
export has no time bound unless --timeout gives one.`,
		Example: "  gamedata export --kind game -o csv --out games.csv\n  gamedata export --kind game -o csv --out games.csv --resume",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.common = f.common(cmd, 0)
			switch opts.Format = f.global.output; opts.Format {
			case "":
				opts.Format = "ndjson"
			case "csv", "ndjson":
			default:
				return usagef("export -o %q: want csv or ndjson", opts.Format)
			}
			if opts.Resume && opts.Out == "" {
				return usagef("export --resume needs --out, the file to continue")
			}
			if opts.Concurrency < 1 {
				return usagef("export --concurrency %d: want 1 or more", opts.Concurrency)
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Kind, "kind", gamedata.KindGame, "a package kind, or server for dedicated servers")
	fl.StringVar(&opts.Sort, "sort", "", "the directory's order; keep the default (a stable one) for a complete export")
	fl.StringArrayVar(&opts.Filters, "filter", nil, "a filter; repeat to combine")
	fl.StringSliceVar(&opts.Fields, "fields", nil, "CSV columns, comma-separated (default: identifiers, title and the numeric metrics found)")
	fl.StringVar(&opts.Out, "out", "", "write to this file instead of stdout")
	fl.BoolVar(&opts.Resume, "resume", false, "continue the cut export in --out, without repeating a row")
	fl.IntVar(&opts.Concurrency, "concurrency", 4, "detail records fetched at once (the rate limit still holds)")
	return cmd
}

func exportRun(ctx context.Context, opts *exportOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	var entries []gamedata.DashboardEntry
	dir := &gamedata.DashboardOptions{Kind: opts.Kind, ListOptions: gamedata.ListOptions{Sort: opts.Sort, Filters: opts.Filters, PageSize: 100}}
	for entry, err := range c.Dashboard.All(ctx, dir) {
		if err != nil {
			return err
		}
		entries = append(entries, entry)
	}
	out := opts.IO.out
	var prior resumed
	if opts.Out != "" {
		file, r, err := openExport(opts.Out, opts.Format, opts.Resume)
		if err != nil {
			return err
		}
		defer file.Close()
		out, prior = file, r
	}
	columns := opts.Fields
	if prior.header {
		columns = prior.columns
	}
	todo := entries[:0:0]
	for _, entry := range entries {
		if !prior.done[writtenIdentity(entry.Fields)] {
			todo = append(todo, entry)
		}
	}
	already := len(entries) - len(todo)
	w := newWriter(opts.Format, out, columns)
	if cw, ok := w.(*csvWriter); ok && prior.header {
		cw.started = true // the header is in the file already
	}
	var bar *progressbar.ProgressBar
	if opts.IO.errTTY && len(todo) > 0 {
		bar = newExportBar(len(todo), already, opts.IO.errOut)
	}
	x := &exporter{c: c, concurrency: opts.Concurrency, w: w, errOut: opts.IO.errOut, bar: bar}
	err = x.details(ctx, todo)
	if cerr := w.close(); err == nil {
		err = cerr
	}
	if bar != nil { // a person is watching stderr; a pipe gets errors only
		bar.Finish()
		fmt.Fprintln(opts.IO.errOut)
		say(opts.IO.errOut, "export: %d written, %d skipped, %d already there, of %d entries", x.written, x.skipped, already, len(entries))
	}
	if err != nil && opts.Out != "" {
		return fmt.Errorf("%w (every row written is whole; run again with --resume to continue)", err)
	}
	return err
}

// exporter writes the detail records of directory entries.
type exporter struct {
	c           *gamedata.Client
	concurrency int
	w           writer
	errOut      io.Writer
	bar         *progressbar.ProgressBar

	written, skipped int
}

// details fetches the detail records of batch, concurrency at a time, and
// writes them in the batch's order: each run of packages, or of servers,
// is one fan-out. It stops at the first failure, or when ctx ends.
func (x *exporter) details(ctx context.Context, batch []gamedata.DashboardEntry) error {
	for len(batch) > 0 {
		n := 1
		for n < len(batch) && batch[n].IsServer() == batch[0].IsServer() {
			n++
		}
		entries := batch[:n]
		batch = batch[n:]
		i := 0
		if entries[0].IsServer() {
			ids := make([]string, n)
			for k, e := range entries {
				ids[k] = e.ID
			}
			for s, err := range x.c.Servers.GetMany(ctx, ids, x.concurrency) {
				var f gamedata.Fields
				if s != nil {
					f = s.Fields
				}
				if err := x.emit(f, entries[i], err); err != nil {
					return err
				}
				i++
			}
			continue
		}
		refs := make([]gamedata.PackageRef, n)
		for k, e := range entries {
			refs[k] = e.PackageRef()
		}
		for p, err := range x.c.Packages.GetMany(ctx, refs, x.concurrency) {
			var f gamedata.Fields
			if p != nil {
				f = p.Fields
			}
			if err := x.emit(f, entries[i], err); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}

// emit writes the detail record f of entry e, or says that e was skipped
// because no request can name it.
func (x *exporter) emit(f gamedata.Fields, e gamedata.DashboardEntry, err error) error {
	if errors.Is(err, gamedata.ErrInvalidArgument) {
		x.skipped++
		x.tick()
		name := e.Kind + "/" + e.Ident
		if e.IsServer() {
			name = "server " + e.ID
		}
		say(x.errOut, "export: skipped %s, which no request can name: %v", name, errors.Unwrap(err))
		return nil
	}
	if err == nil {
		err = x.w.write(f)
	}
	if err != nil {
		return err
	}
	x.written++
	x.tick()
	return nil
}

func (x *exporter) tick() {
	if x.bar != nil {
		x.bar.Add(1)
	}
}

// newExportBar is a progress bar on stderr, for a terminal.
func newExportBar(total, already int, w io.Writer) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(fmt.Sprintf("export (%d done before)", already)),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30))
}
