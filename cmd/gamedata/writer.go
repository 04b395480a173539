package main

import (
	"context"
	"io"
	"slices"

	"github.com/gamedata-go/gamedata"
)

// writer writes records in one output format, one at a time. Every record
// it has written is complete: a Ctrl-C between two leaves a valid CSV or
// NDJSON file.
type writer interface {
	write(f gamedata.Fields) error
	close() error
}

// page is how many records a writer holds at most before it writes them:
// the most a page of the directory holds. Memory is bounded by it, not by
// all that is printed.
const page = 100

// output says where records go and how.
type output struct {
	// ctx bounds --jq and --template: the command's.
	ctx    context.Context
	format string
	w      io.Writer
	// columns, for csv and table, are those --fields names, checked
	// against known and the members of the first batch records; nil to
	// choose them from those records (chooseColumns).
	columns []string
	// known are the documented columns of what is printed (columns.go).
	known []string
	// stream is true when records are printed as they come, so that the
	// columns are chosen before the last one is seen: every known column
	// is written.
	stream bool
	// identity are columns written first whatever --fields says: those an
	// export is resumed by.
	identity []string
	batch    int
	// header is true when a CSV file already holds its header (a resumed
	// export), whose columns are then those given.
	header bool
	// width, for a table, is the terminal's width, which it fits in; 0
	// cuts nothing.
	width int
	// indent, for json, writes each record indented, for a person.
	indent bool
	// tx, when set, is --jq or --template: the records are printed
	// through it, as the JSON array -o json would print.
	tx *transform
	// notice says a line on stderr.
	notice func(format string, args ...any)
}

// newWriter returns a writer for o.
func newWriter(o output) writer {
	o.batch = max(o.batch, 1)
	switch {
	case o.tx != nil:
		return &transformWriter{ctx: o.ctx, tx: o.tx}
	case o.format == "json" && o.columns != nil:
		return &selectedMembers{w: &jsonWriter{w: o.w, indent: o.indent}, fields: o.columns, known: o.known}
	case o.format == "json":
		return &jsonWriter{w: o.w, indent: o.indent}
	case o.format == "ndjson" && o.columns != nil:
		return &selectedMembers{w: &ndjsonWriter{w: o.w}, fields: o.columns, known: o.known}
	case o.format == "ndjson":
		return &ndjsonWriter{w: o.w}
	}
	open := func(columns []string) writer {
		if o.format == "csv" {
			return newCSVWriter(o.w, columns, o.header)
		}
		primary := 0
		for _, c := range columns {
			if o.columns != nil || slices.Contains(o.known, c) || slices.Contains(o.identity, c) {
				primary++
			}
		}
		return &tableWriter{w: o.w, columns: columns, primary: primary, batch: o.batch, width: o.width, notice: o.notice}
	}
	if o.header {
		return open(o.columns)
	}
	return &chosenColumns{o: o, open: open}
}

// printAll writes records in c's format to its stdout, with columns chosen
// from all of them (known first) unless fields names them, and says "no
// results" on a terminal when there are none.
func printAll(ctx context.Context, c common, records []gamedata.Fields, known, fields []string) error {
	w := newWriter(c.output(ctx, known, fields, len(records)))
	for _, f := range records {
		if err := w.write(f); err != nil {
			return err
		}
	}
	if err := w.close(); err != nil {
		return err
	}
	c.noResults(len(records))
	return nil
}

// output is where c prints records of what known describes: its format,
// stdout, the terminal's width, --fields, --jq or --template.
func (c common) output(ctx context.Context, known, fields []string, batch int) output {
	return output{ctx: ctx, format: c.Format, w: c.IO.out, columns: fields, known: known, batch: batch,
		width: c.IO.width, indent: c.IO.outTTY, tx: c.Transform,
		notice: func(format string, args ...any) { say(c.IO.errOut, format, args...) }}
}

// noResults says so on stderr when nothing was printed to a terminal: an
// empty table looks like a hang or a failure. A pipe gets what was asked,
// nothing.
func (c common) noResults(n int) {
	if n == 0 && c.IO.outTTY {
		say(c.IO.errOut, "no results")
	}
}

// chosenColumns is a CSV or table writer whose columns are chosen (or,
// given, checked) from its first batch records: it holds those, then
// writes them and every later record as it comes. A numeric member that
// first appears after the choice is named on stderr, once: it is not in
// the output.
type chosenColumns struct {
	o       output
	open    func(columns []string) writer
	pending []gamedata.Fields
	w       writer
	columns []string
	told    map[string]bool
}

func (c *chosenColumns) write(f gamedata.Fields) error {
	if c.w == nil {
		c.pending = append(c.pending, f)
		if len(c.pending) < c.o.batch {
			return nil
		}
		return c.start()
	}
	c.unseen(f)
	return c.w.write(f)
}

// start chooses the columns from the records held and writes them. A
// member those records have is not news later, column or not.
func (c *chosenColumns) start() error {
	if c.o.columns != nil {
		if err := checkFields(c.o.columns, c.o.known, c.pending); err != nil {
			return err
		}
		c.columns = withIdentity(c.o.identity, c.o.columns)
	} else {
		c.columns = withIdentity(c.o.identity, chooseColumns(c.pending, c.o.known, c.o.stream))
	}
	c.w = c.open(c.columns)
	c.told = presentNames(c.pending)
	pending := c.pending
	c.pending = nil
	for _, f := range pending {
		if err := c.w.write(f); err != nil {
			return err
		}
	}
	return nil
}

// unseen names, once each, f's numeric members that are not columns.
func (c *chosenColumns) unseen(f gamedata.Fields) {
	if c.o.notice == nil {
		return
	}
	for _, n := range f.Names() {
		if _, number := f.Metric(n).Get(); c.told[n] || slices.Contains(c.columns, n) || !number {
			continue
		}
		c.told[n] = true
		c.o.notice("member %q first appears after the %s columns were chosen and is not among them; name it in --fields to have it", n, c.o.format)
	}
}

func (c *chosenColumns) close() error {
	if c.w == nil {
		if len(c.pending) == 0 {
			if c.o.columns != nil {
				return checkFields(c.o.columns, c.o.known, nil)
			}
			return nil
		}
		if err := c.start(); err != nil {
			return err
		}
	}
	return c.w.close()
}

// selectedMembers is a JSON or NDJSON writer of the members --fields
// names, checked, as CSV and table columns are, against the documented
// ones and those of the first record.
type selectedMembers struct {
	w       writer
	fields  []string
	known   []string
	checked bool
}

func (s *selectedMembers) write(f gamedata.Fields) error {
	if !s.checked {
		s.checked = true
		if err := checkFields(s.fields, s.known, []gamedata.Fields{f}); err != nil {
			return err
		}
	}
	sel, err := selectMembers(f, s.fields)
	if err != nil {
		return err
	}
	return s.w.write(sel)
}

func (s *selectedMembers) close() error {
	if !s.checked {
		if err := checkFields(s.fields, s.known, nil); err != nil {
			return err
		}
	}
	return s.w.close()
}
