package main

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// tableWriter lines up columns for a person, a batch of rows at a time:
// each batch is padded to the widest cell seen so far, so a long listing
// stays aligned unless a later page holds a wider cell, and memory holds
// one batch. Long cells are cut short.
type tableWriter struct {
	w       io.Writer
	columns []string
	batch   int
	rows    [][]string // held, the header among them until it is written
	held    int        // records among rows
	widths  []int
	started bool
}

// cellWidth is the most runes a table cell shows.
const cellWidth = 40

func (t *tableWriter) write(f gamedata.Fields) error {
	if !t.started {
		t.started = true
		header := make([]string, len(t.columns))
		for i, col := range t.columns {
			header[i] = gamedata.NewUntrusted(strings.ToUpper(col)).String() // a member name the service chose
		}
		t.rows = append(t.rows, header)
	}
	row := make([]string, len(t.columns))
	for i, col := range t.columns {
		row[i] = clip(cell(f, col), cellWidth)
	}
	t.rows = append(t.rows, row)
	if t.held++; t.held >= t.batch {
		return t.flush()
	}
	return nil
}

// flush writes the rows held, each cell but the last padded to its
// column's width and two spaces.
func (t *tableWriter) flush() error {
	if t.widths == nil {
		t.widths = make([]int, len(t.columns))
	}
	for _, row := range t.rows {
		for i, c := range row {
			t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, row := range t.rows {
		for i, c := range row {
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteByte('\n')
	}
	t.rows, t.held = t.rows[:0], 0
	_, err := io.WriteString(t.w, b.String())
	return err
}

func (t *tableWriter) close() error { return t.flush() }
