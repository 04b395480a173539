package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/progress"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/resume"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/served"
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
detail record, fetched concurrently within the rate limit a page at a
time as the directory is read, as CSV or NDJSON (-o; by default CSV for
an --out that ends in .csv, as chart takes its format, NDJSON otherwise,
such as for .ndjson or .jsonl). An --out that ends in .json is refused:
NDJSON is a record a line, which Ctrl-C leaves valid and --resume
continues, not the one JSON document a .json file holds.
A null metric is an empty CSV cell and null in NDJSON, never 0. CSV
columns are the identity columns (kind and ident, or id for servers),
always, then those --fields names, or by default the documented ones
(` + printer.ColumnsHelp(printer.PackageColumns) + `; for servers ` + printer.ColumnsHelp(printer.ServerColumns) + `) and every
numeric member of the first 100 records. On a terminal, stderr shows a
progress bar: entries done of the directory's total (when the service
says it), rate and time left; it stops where the export stops. A
one-line summary follows on stderr, in a pipe too: rows written,
entries skipped and already there, of the directory's total. export
has no time bound unless --timeout gives one.

Ctrl-C stops cleanly: every row written is complete. --resume, with
--out, continues a cut export into the same file: a last line cut in the
middle is dropped, the header is kept (or written if it was cut), and
every record whose identity is already in the file is left out, so each
is written exactly once. A file it cannot continue exactly is refused,
with what to do: one in the other format, one without the identity
columns, one with other columns than this export writes (resume with
the --fields the file has), or one of another kind.

In CSV, the identity columns (kind, ident, id) and the header are written
in an exact form that reads back unchanged, so that no two identities
look alike: a backslash is written \\, a character the sanitizer would
remove or change (a control, tab or line break, a bidi or invisible
character) is written \uXXXX (\UXXXXXXXX above U+FFFF), a byte that is
not UTF-8 \xXX, and a cell that begins with =, +, @, ' or a - that is not
a number gets a leading ' (so a leading ' always comes off). Other
cells are sanitized and get the same guard. In NDJSON every record is as
sent, with such characters escaped as \u in its strings.

An entry no request can name (the ident "..") is skipped, and said so.`,
		Example: "  gamedata export --kind game -o csv --out games.csv\n  gamedata export --kind game -o csv --out games.csv --resume",
		Args:    message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return err
			}
			if strings.EqualFold(filepath.Ext(opts.Out), ".json") {
				name := strings.TrimSuffix(opts.Out, filepath.Ext(opts.Out))
				return message.Usagef("export --out %s: a .json name promises one JSON document, and export writes CSV or NDJSON (a record a line, which Ctrl-C leaves valid and --resume continues); name it %s.ndjson or %s.jsonl for NDJSON, or %s.csv for CSV",
					opts.Out, name, name, name)
			}
			if opts.Format = opts.Output; opts.Format == "" {
				opts.Format = formatOf(opts.Out)
			}
			if len(opts.Fields) > 0 && opts.Format != "csv" {
				return message.Usagef("export --fields names CSV columns; -o %s writes every member", opts.Format)
			}
			if opts.Resume && opts.Out == "" {
				return message.Usagef("export --resume needs --out, the file to continue")
			}
			if opts.Concurrency < 1 {
				return message.Usagef("export --concurrency %d: want 1 or more", opts.Concurrency)
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Kind, "kind", gamedata.KindGame, "a package kind, or server for dedicated servers")
	fl.StringVar(&opts.Sort, "sort", "", "the directory's order; keep the default (a stable one) for a complete export")
	fl.StringSliceVar(&opts.Filters, "filter", nil, "filters, comma-separated or repeated, which combine; one the service does not apply is said on stderr")
	fl.StringSliceVar(&opts.Fields, "fields", nil, "CSV columns, comma-separated, after the identity columns (default: the documented ones and the numeric members of the first 100 records)")
	fl.StringVar(&opts.Out, "out", "", "write to this file instead of stdout")
	fl.BoolVar(&opts.Resume, "resume", false, "continue the cut export in --out, without repeating a row")
	fl.IntVar(&opts.Concurrency, "concurrency", 4, "detail records fetched at once (the rate limit still holds)")
	f.addServiceFlags(cmd, &opts.common)
	opts.addOutputFlag(cmd, "csv for an --out that ends in .csv, ndjson otherwise", "csv", "ndjson")
	opts.addTimeoutFlag(cmd, noBound)
	return cmd
}

// formatOf is export's format when -o gives none: CSV for a file named
// .csv (in any case), NDJSON otherwise (.ndjson, .jsonl).
func formatOf(out string) string {
	if strings.EqualFold(filepath.Ext(out), ".csv") {
		return "csv"
	}
	return "ndjson"
}

func exportRun(ctx context.Context, opts *exportOptions) error {
	ef := resume.File{Path: opts.Out, Format: opts.Format, Identity: resume.Identity(opts.Kind),
		Fields: opts.Fields, Known: printer.DirectoryColumns(opts.Kind)}
	var file *os.File
	var prior resume.Written
	var err error
	if opts.Resume {
		// A file this export cannot continue is refused before the
		// service is asked anything.
		if file, prior, err = resume.Open(ef, true); err != nil {
			return err
		}
		defer file.Close()
	}
	c, err := opts.Client()
	if err != nil {
		return err
	}
	if opts.Out != "" && !opts.Resume {
		if file, _, err = resume.Open(ef, false); err != nil {
			return err
		}
		defer file.Close()
	}
	dir := &gamedata.DashboardOptions{Kind: opts.Kind, ListOptions: gamedata.ListOptions{Sort: opts.Sort, Filters: opts.Filters, PageSize: printer.Page}}
	p, err := exportFirstPage(ctx, opts, c, dir, prior, file)
	if err != nil {
		return err
	}
	x := newDetailExport(opts, c, ef, prior, directoryTotal(p), file)
	err = x.run(ctx, dir)
	return exportEnded(opts, x.written, err)
}

// exportFirstPage reads the directory's first page, which says what the
// service serves and how many entries there are (the walk reads it
// again, which the cache answers with a 304), says on stderr where that
// differs from what was asked, and checks that a resumed file holds the
// kind served before it continues it.
func exportFirstPage(ctx context.Context, opts *exportOptions, c *gamedata.Client, dir *gamedata.DashboardOptions, prior resume.Written, file *os.File) (gamedata.Pagination, error) {
	first, err := c.Dashboard.List(ctx, dir)
	if err != nil {
		return gamedata.Pagination{}, err
	}
	sayServed(opts.common, "export", served.Notices(served.Asked{Kind: opts.Kind, Sort: opts.Sort, Filters: opts.Filters}, first.Fields, first.Pagination))
	if err := resume.CheckKinds(opts.Out, prior, servedKind(opts.Kind, first.Fields)); err != nil {
		return gamedata.Pagination{}, err
	}
	if opts.Resume {
		if err := prior.ContinueAt(file); err != nil {
			return gamedata.Pagination{}, fmt.Errorf("export --resume %s: %w", opts.Out, err)
		}
	}
	return first.Pagination, nil
}

// newDetailExport is the export opts asks for, to file (stdout when nil)
// after what prior holds, of a directory of total entries.
func newDetailExport(opts *exportOptions, c *gamedata.Client, ef resume.File, prior resume.Written, total int, file *os.File) *detailExport {
	out := opts.IO.out
	if file != nil {
		out = file
	}
	columns := opts.Fields
	if prior.Header {
		columns = prior.Columns
	}
	x := &detailExport{
		c: c, concurrency: opts.Concurrency, errOut: opts.IO.errOut, done: prior.Done, total: total,
		w: printer.New(printer.Options{Format: opts.Format, Out: out, Columns: columns, Known: ef.Known, Stream: true, Identity: ef.Identity,
			Batch: printer.Page, Header: prior.Header,
			Notice: func(format string, args ...any) { message.Line(opts.IO.errOut, "export: "+format, args...) }}),
	}
	if opts.IO.errTTY {
		x.bar = progress.New(opts.IO.errOut, "export", x.total)
	}
	return x
}

// exportEnded is how an export that wrote written records ended: err,
// with what was kept, and how to go on from a file.
func exportEnded(opts *exportOptions, written int, err error) error {
	if err == nil || message.IsUsage(err) {
		return err
	}
	if opts.Out == "" {
		return message.WithKept(err, "%s printed, each whole", message.Plural(written, "record"))
	}
	return message.WithKept(fmt.Errorf("%w (every row written is whole; run again with --resume to continue)", err),
		"%s written to %s, each whole; run again with --resume to continue", message.Plural(written, "row"), opts.Out)
}

// directoryTotal is the number of entries a directory page's pagination
// says the directory holds, or -1 when it does not say.
func directoryTotal(p gamedata.Pagination) int {
	if n, ok := p.Metric("total").Get(); ok && n >= 0 {
		return int(n)
	}
	return -1
}

// servedKind is the kind of package the directory page envelope says it
// lists, "" for every kind; asked when it does not say, or for servers.
func servedKind(asked string, envelope gamedata.Fields) string {
	if asked == "server" {
		return ""
	}
	raw, ok := envelope.Raw("kind")
	if !ok {
		return asked
	}
	if string(raw) == "null" {
		return ""
	}
	k, _ := envelope.Text("kind")
	return k.Unsanitized()
}

// detailExport writes the detail record of every entry of a directory walk,
// a page at a time: memory holds a page of entries and their records,
// never the directory.
type detailExport struct {
	c           *gamedata.Client
	concurrency int
	w           printer.Writer
	errOut      io.Writer
	done        map[string]bool // identities already written, by a cut run
	bar         *progress.Bar

	entries, written, skipped, already int
	finished                           bool // the walk read the whole directory
	// total is the directory's number of entries, as the service says it
	// (the bar's total), or -1 when it does not say.
	total int
}

// run walks the directory and closes the writer; the progress bar, on a
// terminal, then stops, and a summary is said on stderr, in a pipe too,
// so that a script's log says what was written, as sync's does.
func (x *detailExport) run(ctx context.Context, dir *gamedata.DashboardOptions) error {
	err := x.walk(ctx, dir)
	x.finished = err == nil
	if cerr := x.w.Close(); err == nil {
		err = cerr
	}
	if x.bar != nil {
		x.bar.Stop()
	}
	message.Line(x.errOut, "export: %d written, %d skipped, %d already there, %s", x.written, x.skipped, x.already, x.of())
	return err
}

// of says of how many entries: the directory's total, which the bar
// counts to, when the service gave one; otherwise those read, which are
// all of them only when the walk ended.
func (x *detailExport) of() string {
	switch {
	case x.total >= 0:
		return fmt.Sprintf("of %d entries", x.total)
	case x.finished:
		return fmt.Sprintf("of %d entries", x.entries)
	}
	return fmt.Sprintf("of at least %d entries", x.entries)
}

// walk reads the directory and exports each page's entries as the page
// fills; it stops at the first failure, or when ctx ends.
func (x *detailExport) walk(ctx context.Context, dir *gamedata.DashboardOptions) error {
	batch := make([]gamedata.DashboardEntry, 0, printer.Page)
	for e, err := range x.c.Dashboard.All(ctx, dir, nil) {
		if err != nil {
			return err
		}
		x.entries++
		if x.done[resume.IdentityOf(e.Fields)] {
			x.already++
			x.tick()
			continue
		}
		if batch = append(batch, e); len(batch) == printer.Page {
			if err := x.details(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return x.details(ctx, batch)
}

// details fetches the detail records of batch, concurrency at a time, and
// writes them in the batch's order: each run of packages, or of servers,
// is one fan-out.
func (x *detailExport) details(ctx context.Context, batch []gamedata.DashboardEntry) error {
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
func (x *detailExport) emit(f gamedata.Fields, e gamedata.DashboardEntry, err error) error {
	if errors.Is(err, gamedata.ErrInvalidArgument) {
		x.skipped++
		x.tick()
		message.Line(x.errOut, "export: skipped %s, which no request can name: %v", entryName(e), errors.Unwrap(err))
		return nil
	}
	if err != nil {
		return fmt.Errorf("export: %s: %w", entryName(e), message.ItemCause(err))
	}
	if err := x.w.Write(f); err != nil {
		return err
	}
	x.written++
	x.tick()
	return nil
}

// entryName names e in a message, sanitized: "package KIND/IDENT" or
// "server ID".
func entryName(e gamedata.DashboardEntry) string {
	if e.IsServer() {
		return "server " + gamedata.NewUntrusted(e.ID).String()
	}
	return "package " + gamedata.NewUntrusted(e.Kind+"/"+e.Ident).String()
}

func (x *detailExport) tick() {
	if x.bar != nil {
		x.bar.Add()
	}
}
