package main

import (
	"context"
	"fmt"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
)

// printAll writes records in c's format to its stdout, with columns chosen
// from all of them (known first) unless fields names them, and says "no
// results" on a terminal when there are none.
func printAll(ctx context.Context, c common, records []gamedata.Fields, known, fields []string) error {
	w := printer.New(c.output(ctx, known, fields, len(records)))
	for _, f := range records {
		if err := w.Write(f); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	c.noResults(len(records))
	return nil
}

// output is where c prints records of what known describes: its format,
// stdout, the terminal's width, --fields, --jq or --template, which runs
// under ctx.
func (c common) output(ctx context.Context, known, fields []string, batch int) printer.Options {
	o := printer.Options{Format: c.Format, Out: c.IO.out, Columns: fields, Known: known, Batch: batch,
		Width: c.IO.width, Indent: c.IO.outTTY,
		Notice: func(format string, args ...any) { message.Line(c.IO.errOut, format, args...) }}
	if c.Transform != nil {
		o.Apply = func(doc []byte) error { return c.Transform.Apply(ctx, doc) }
	}
	return o
}

// printJSON writes doc, one JSON document, to c's stdout as sent and
// safe to print (printer.SafeJSON): on one line, indented for a person
// on a terminal.
func (c common) printJSON(doc []byte) error {
	line, err := printer.SafeJSON(doc)
	if err != nil {
		return err
	}
	if c.IO.outTTY {
		line = printer.Indented(line, "")
	}
	_, err = fmt.Fprintf(c.IO.out, "%s\n", line)
	return err
}

// noResults says so on stderr when nothing was printed to a terminal: an
// empty table looks like a hang or a failure. A pipe gets what was asked,
// nothing.
func (c common) noResults(n int) {
	if n == 0 && c.IO.outTTY {
		message.Line(c.IO.errOut, "no results")
	}
}
