package main

import (
	"io"

	"github.com/gamedata-go/gamedata"
)

// writer writes records in one output format, one at a time. Every record
// it has written is complete: a Ctrl-C between two leaves a valid CSV or
// NDJSON file.
type writer interface {
	write(f gamedata.Fields) error
	close() error
}

// newWriter returns a writer of format to w. Columns, for csv and table,
// are those given, or chosen from the first record.
func newWriter(format string, w io.Writer, columns []string) writer {
	switch format {
	case "json":
		return &jsonWriter{w: w}
	case "csv":
		return newCSVWriter(w, columns)
	case "table":
		return newTableWriter(w, columns)
	}
	return &ndjsonWriter{w: w}
}

// printAll writes records in c's format to its stdout, with columns chosen
// from all of them unless given.
func printAll(c common, records []gamedata.Fields, columns []string) error {
	if columns == nil {
		columns = chooseColumns(records)
	}
	w := newWriter(c.Format, c.IO.out, columns)
	for _, f := range records {
		if err := w.write(f); err != nil {
			return err
		}
	}
	return w.close()
}
