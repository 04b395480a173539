// Package printer writes the records a command prints in the format asked
// for: json, ndjson, csv or a table fitted to the terminal, or through
// --jq or --template. Whatever it writes is safe to show: the service's
// text never steers a terminal nor a spreadsheet, null is an empty cell,
// never 0, and identifiers are written so that they read back exactly.
// It also holds the documented columns of each kind of record and the
// checks of --fields against them.
package printer

import (
	"bytes"
	"io"
	"slices"

	"github.com/gamedata-go/gamedata"
)

// Writer writes records in one output format, one at a time. Every record
// it has written is complete: a Ctrl-C between two leaves a valid CSV or
// NDJSON file. Close writes what it holds and ends the document.
type Writer interface {
	Write(f gamedata.Fields) error
	Close() error
}

// Page is how many records a Writer holds at most before it writes them:
// the most a page of the directory holds. Memory is bounded by it, not by
// all that is printed.
const Page = 100

// Options say where records go and how.
type Options struct {
	// Format is json, ndjson, csv or table.
	Format string
	Out    io.Writer
	// Columns, for csv and table, are those --fields names, checked
	// against Known and the members of the first Batch records; nil to
	// choose them from those records.
	Columns []string
	// Known are the documented columns of what is printed (columns.go).
	Known []string
	// Stream is true when records are printed as they come, so that the
	// columns are chosen before the last one is seen: every known column
	// is written.
	Stream bool
	// Identity are columns written first whatever --fields says: those an
	// export is resumed by.
	Identity []string
	// Batch is how many records are held to choose columns from and to
	// align a table by; at least 1.
	Batch int
	// Header is true when a CSV file already holds its header (a resumed
	// export), whose columns are then those given.
	Header bool
	// Width, for a table, is the terminal's width, which it fits in; 0
	// cuts nothing.
	Width int
	// Indent, for json, writes each record indented, for a person.
	Indent bool
	// Apply, when set, is --jq or --template, under the command's
	// context: the records are printed through it, as the JSON array -o
	// json would print.
	Apply func(doc []byte) error
	// Notice says a line on stderr; nil says nothing.
	Notice func(format string, args ...any)
}

// New returns a Writer for o.
func New(o Options) Writer {
	o.Batch = max(o.Batch, 1)
	switch {
	case o.Apply != nil:
		return &transformWriter{apply: o.Apply}
	case o.Format == "json" && o.Columns != nil:
		return &selectedMembers{w: &jsonWriter{w: o.Out, indent: o.Indent}, fields: o.Columns, known: o.Known}
	case o.Format == "json":
		return &jsonWriter{w: o.Out, indent: o.Indent}
	case o.Format == "ndjson" && o.Columns != nil:
		return &selectedMembers{w: &ndjsonWriter{w: o.Out}, fields: o.Columns, known: o.Known}
	case o.Format == "ndjson":
		return &ndjsonWriter{w: o.Out}
	}
	open := func(columns []string) Writer {
		if o.Format == "csv" {
			return newCSVWriter(o.Out, columns, o.Header)
		}
		primary := 0
		for _, c := range columns {
			if o.Columns != nil || slices.Contains(o.Known, c) || slices.Contains(o.Identity, c) {
				primary++
			}
		}
		return &tableWriter{w: o.Out, columns: columns, primary: primary, batch: o.Batch, width: o.Width, notice: o.Notice}
	}
	if o.Header {
		return open(o.Columns)
	}
	return &chosenColumns{o: o, open: open}
}

// chosenColumns is a CSV or table Writer whose columns are chosen (or,
// given, checked) from its first batch records: it holds those, then
// writes them and every later record as it comes. A numeric member that
// first appears after the choice is named on stderr, once: it is not in
// the output.
type chosenColumns struct {
	o       Options
	open    func(columns []string) Writer
	pending []gamedata.Fields
	w       Writer
	columns []string
	told    map[string]bool
}

func (c *chosenColumns) Write(f gamedata.Fields) error {
	if c.w == nil {
		c.pending = append(c.pending, f)
		if len(c.pending) < c.o.Batch {
			return nil
		}
		return c.start()
	}
	c.unseen(f)
	return c.w.Write(f)
}

// start chooses the columns from the records held and writes them. A
// member those records have is not news later, column or not.
func (c *chosenColumns) start() error {
	if c.o.Columns != nil {
		if err := CheckFields(c.o.Columns, c.o.Known, c.pending); err != nil {
			return err
		}
		c.columns = WithIdentity(c.o.Identity, c.o.Columns)
	} else {
		c.columns = WithIdentity(c.o.Identity, chooseColumns(c.pending, c.o.Known, c.o.Stream))
	}
	c.w = c.open(c.columns)
	c.told = presentNames(c.pending)
	pending := c.pending
	c.pending = nil
	for _, f := range pending {
		if err := c.w.Write(f); err != nil {
			return err
		}
	}
	return nil
}

// unseen names, once each, f's numeric members that are not columns.
func (c *chosenColumns) unseen(f gamedata.Fields) {
	if c.o.Notice == nil {
		return
	}
	for _, n := range f.Names() {
		if _, number := f.Metric(n).Get(); c.told[n] || slices.Contains(c.columns, n) || !number {
			continue
		}
		c.told[n] = true
		c.o.Notice("member %q first appears after the %s columns were chosen and is not among them; name it in --fields to have it", n, c.o.Format)
	}
}

func (c *chosenColumns) Close() error {
	if c.w == nil {
		if len(c.pending) == 0 {
			if c.o.Columns != nil {
				return CheckFields(c.o.Columns, c.o.Known, nil)
			}
			return nil
		}
		if err := c.start(); err != nil {
			return err
		}
	}
	return c.w.Close()
}

// selectedMembers is a JSON or NDJSON Writer of the members --fields
// names, checked, as CSV and table columns are, against the documented
// ones and those of the first record.
type selectedMembers struct {
	w       Writer
	fields  []string
	known   []string
	checked bool
}

func (s *selectedMembers) Write(f gamedata.Fields) error {
	if !s.checked {
		s.checked = true
		if err := CheckFields(s.fields, s.known, []gamedata.Fields{f}); err != nil {
			return err
		}
	}
	sel, err := SelectMembers(f, s.fields)
	if err != nil {
		return err
	}
	return s.w.Write(sel)
}

func (s *selectedMembers) Close() error {
	if !s.checked {
		if err := CheckFields(s.fields, s.known, nil); err != nil {
			return err
		}
	}
	return s.w.Close()
}

// transformWriter holds the records a command prints, then prints them
// through --jq or --template as one JSON array, as -o json would: a jq
// expression sees the whole list, as in gh.
type transformWriter struct {
	apply   func(doc []byte) error
	records bytes.Buffer
	n       int
}

func (w *transformWriter) Write(f gamedata.Fields) error {
	if w.n == 0 {
		w.records.WriteByte('[')
	} else {
		w.records.WriteByte(',')
	}
	w.n++
	_, err := w.records.Write(f.JSON())
	return err
}

func (w *transformWriter) Close() error {
	if w.n == 0 {
		return w.apply([]byte("[]"))
	}
	w.records.WriteByte(']')
	return w.apply(w.records.Bytes())
}
