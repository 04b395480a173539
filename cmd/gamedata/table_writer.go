package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gamedata-go/gamedata"
)

// tableWriter lines up columns for a person; long cells are cut short.
type tableWriter struct {
	w       *tabwriter.Writer
	columns []string
	started bool
}

// cellWidth is the most runes a table cell shows.
const cellWidth = 40

func newTableWriter(w io.Writer, columns []string) *tableWriter {
	return &tableWriter{w: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), columns: columns}
}

func (t *tableWriter) write(f gamedata.Fields) error {
	if !t.started {
		t.started = true
		if t.columns == nil {
			t.columns = chooseColumns([]gamedata.Fields{f})
		}
		header := make([]string, len(t.columns))
		for i, col := range t.columns {
			header[i] = gamedata.NewUntrusted(strings.ToUpper(col)).String() // a member name the service chose
		}
		fmt.Fprintln(t.w, strings.Join(header, "\t"))
	}
	row := make([]string, len(t.columns))
	for i, col := range t.columns {
		row[i] = clip(cell(f, col), cellWidth)
	}
	_, err := fmt.Fprintln(t.w, strings.Join(row, "\t"))
	return err
}

func (t *tableWriter) close() error { return t.w.Flush() }
