package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
)

// exportFlags are the flags of export.
type exportFlags struct {
	kind        string
	sort        string
	filters     []string
	fields      []string
	out         string
	resume      bool
	concurrency int
}

func (a *app) exportCommand() *cobra.Command {
	var e exportFlags
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export every entry of a directory with its detail record, to CSV or NDJSON",
		Long: `Export every entry of the directory (--kind game by default) with its
detail record, fetched concurrently within the rate limit, as CSV or NDJSON
(-o; NDJSON by default). A null metric is an empty CSV cell and null in
NDJSON, never 0. On a terminal, stderr shows a progress bar: items done,
rate and time left.

Ctrl-C stops cleanly: every row written is complete. --resume, with
--out, continues a cut export into the same file without repeating a row.
An entry no request can name (the ident "..") is skipped, and said so.`,
		Example: "  gamedata export --kind game -o csv --out games.csv\n  gamedata export --kind game -o csv --out games.csv --resume",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			format := a.output
			switch format {
			case "":
				format = "ndjson"
			case "csv", "ndjson":
			default:
				return usageError{fmt.Errorf("export -o %q: want csv or ndjson", format)}
			}
			if e.resume && e.out == "" {
				return usageError{errors.New("export --resume needs --out, the file to continue")}
			}
			if e.concurrency < 1 {
				return usageError{fmt.Errorf("export --concurrency %d: want 1 or more", e.concurrency)}
			}
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			return a.export(ctx, c, e, format)
		},
	}
	f := cmd.Flags()
	f.StringVar(&e.kind, "kind", gamedata.KindGame, "a package kind, or server for dedicated servers")
	f.StringVar(&e.sort, "sort", "", "the directory's order; keep the default (a stable one) for a complete export")
	f.StringArrayVar(&e.filters, "filter", nil, "a filter; repeat to combine")
	f.StringSliceVar(&e.fields, "fields", nil, "CSV columns, comma-separated (default: identifiers, title and the numeric metrics found)")
	f.StringVar(&e.out, "out", "", "write to this file instead of stdout")
	f.BoolVar(&e.resume, "resume", false, "continue the cut export in --out, without repeating a row")
	f.IntVar(&e.concurrency, "concurrency", 4, "detail records fetched at once (the rate limit still holds)")
	return cmd
}

func (a *app) export(ctx context.Context, c *gamedata.Client, e exportFlags, format string) error {
	var entries []gamedata.DashboardEntry
	opts := &gamedata.DashboardOptions{Kind: e.kind, ListOptions: gamedata.ListOptions{Sort: e.sort, Filters: e.filters, PageSize: 100}}
	for entry, err := range c.Dashboard.All(ctx, opts) {
		if err != nil {
			return err
		}
		entries = append(entries, entry)
	}
	var done map[string]bool
	columns := e.fields
	out := a.stdout
	if e.out != "" {
		var file *os.File
		var err error
		if e.resume {
			file, done, columns, err = reopen(e.out, format, columns)
		} else {
			file, err = os.Create(e.out)
		}
		if err != nil {
			return err
		}
		defer file.Close()
		out = file
	}
	todo := entries[:0:0]
	for _, entry := range entries {
		if !done[identity(entry.Fields)] {
			todo = append(todo, entry)
		}
	}
	w := newWriter(format, out, columns)
	if cw, ok := w.(*csvWriter); ok && len(done) > 0 {
		cw.started = true // the header is in the file already
	}
	bar := a.progress(len(todo), len(done))
	written, skipped, err := a.exportDetails(ctx, c, todo, e.concurrency, w, bar)
	if cerr := w.close(); err == nil {
		err = cerr
	}
	if bar != nil { // a person is watching stderr; a pipe gets errors only
		bar.Finish()
		fmt.Fprintf(a.stderr, "\ngamedata: export: %d written, %d skipped, %d already there, of %d entries\n", written, skipped, len(done), len(entries))
	}
	if err != nil && e.out != "" {
		return fmt.Errorf("%w (every row written is whole; run again with --resume to continue)", err)
	}
	return err
}

// exportDetails fetches the detail record of every entry, concurrency at
// a time, and writes them in order; it stops at the first failure, or
// when ctx ends.
func (a *app) exportDetails(ctx context.Context, c *gamedata.Client, todo []gamedata.DashboardEntry, concurrency int, w writer, bar *progressbar.ProgressBar) (written, skipped int, err error) {
	var refs []gamedata.PackageRef
	var ids []string
	for _, e := range todo {
		if e.IsServer() {
			ids = append(ids, e.ID)
		} else {
			refs = append(refs, e.PackageRef())
		}
	}
	emit := func(f gamedata.Fields, name string, err error) error {
		if errors.Is(err, gamedata.ErrInvalidArgument) {
			skipped++
			fmt.Fprintf(a.stderr, "gamedata: export: skipped %s, which no request can name: %v\n", name, errors.Unwrap(err))
			return nil
		}
		if err == nil {
			err = w.write(f)
		}
		if err != nil {
			return err
		}
		written++
		if bar != nil {
			bar.Add(1)
		}
		return nil
	}
	i := 0
	for p, err := range c.Packages.GetMany(ctx, refs, concurrency) {
		var f gamedata.Fields
		if p != nil {
			f = p.Fields
		}
		if err := emit(f, refs[i].Kind+"/"+refs[i].Ident, err); err != nil {
			return written, skipped, err
		}
		i++
	}
	i = 0
	for s, err := range c.Servers.GetMany(ctx, ids, concurrency) {
		var f gamedata.Fields
		if s != nil {
			f = s.Fields
		}
		if err := emit(f, "server "+ids[i], err); err != nil {
			return written, skipped, err
		}
		i++
	}
	return written, skipped, nil
}

// progress is a bar on stderr when stderr is a terminal, and nil (nothing
// on stderr) when it is not.
func (a *app) progress(total, already int) *progressbar.ProgressBar {
	if !a.stderrTTY || total == 0 {
		return nil
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(a.stderr),
		progressbar.OptionSetDescription(fmt.Sprintf("export (%d done before)", already)),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetWidth(30))
}

// identity names a record by its identifiers: kind/ident, or server:id.
func identity(f gamedata.Fields) string {
	if id := cell(f, "id"); id != "" && cell(f, "ident") == "" {
		return "server:" + id
	}
	return cell(f, "kind") + "/" + cell(f, "ident")
}

// reopen opens a cut export to continue it: it drops a last line cut in
// the middle, reads the identities of the rows already written, and, for
// CSV, the columns of its header.
func reopen(path, format string, columns []string) (*os.File, map[string]bool, []string, error) {
	body, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		f, err := os.Create(path)
		return f, nil, columns, err
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if i := bytes.LastIndexByte(body, '\n'); i+1 != len(body) {
		body = body[:i+1] // a line cut in the middle was never a row
	}
	done := map[string]bool{}
	switch format {
	case "csv":
		columns, err = csvIdentities(body, done, columns)
	default:
		err = ndjsonIdentities(body, done)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("resume %s: %w", path, err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return nil, nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	return f, done, columns, err
}

func csvIdentities(body []byte, done map[string]bool, columns []string) ([]string, error) {
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(rows) == 0 {
		return columns, err
	}
	header := rows[0]
	col := map[string]int{}
	for i, c := range header {
		col[c] = i
	}
	for _, row := range rows[1:] {
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(row) {
				return row[i]
			}
			return ""
		}
		rec, _ := fieldsOf(map[string]string{"kind": get("kind"), "ident": get("ident"), "id": get("id")})
		done[identity(rec)] = true
	}
	return header, nil
}

func ndjsonIdentities(body []byte, done map[string]bool) error {
	s := bufio.NewScanner(bytes.NewReader(body))
	s.Buffer(nil, 64<<20)
	for s.Scan() {
		var f gamedata.Fields
		if err := json.Unmarshal(s.Bytes(), &f); err != nil {
			return err
		}
		done[identity(f)] = true
	}
	return s.Err()
}
