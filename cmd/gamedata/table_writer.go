package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// tableWriter lines up columns for a person, a batch of rows at a time:
// each batch is padded to the widest cell seen so far, so a long listing
// stays aligned unless a later page holds a wider cell, and memory holds
// one batch. Widths are in terminal cells, so wide characters and emoji
// line up. On a terminal the table fits its width (fitColumns); in a pipe
// nothing is cut.
type tableWriter struct {
	w       io.Writer
	columns []string
	batch   int
	width   int        // the terminal's width; 0: no limit
	rows    [][]string // held, the header among them until it is written
	held    int        // records among rows
	widths  []int      // the widest cell of each column so far
	text    []bool     // columns that have held a cell other than a number
	started bool
}

func (t *tableWriter) write(f gamedata.Fields) error {
	if !t.started {
		t.started = true
		header := make([]string, len(t.columns))
		for i, col := range t.columns {
			header[i] = gamedata.NewUntrusted(strings.ToUpper(col)).String() // a member name the service chose
		}
		t.rows = append(t.rows, header)
		t.widths = make([]int, len(t.columns))
		t.text = make([]bool, len(t.columns))
	}
	row := make([]string, len(t.columns))
	for i, col := range t.columns {
		row[i] = cell(f, col)
		if _, err := strconv.ParseFloat(row[i], 64); err != nil && row[i] != "" {
			t.text[i] = true
		}
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
	for _, row := range t.rows {
		for i, c := range row {
			t.widths[i] = max(t.widths[i], displayWidth(c))
		}
	}
	widths := fitColumns(t.widths, t.text, t.width)
	var b strings.Builder
	for _, row := range t.rows {
		line := make([]string, len(row))
		for i, c := range row {
			c = truncateWidth(c, widths[i])
			if i < len(row)-1 {
				c = padWidth(c, widths[i])
			}
			line[i] = c
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " "))
		b.WriteByte('\n')
	}
	t.rows, t.held = t.rows[:0], 0
	_, err := io.WriteString(t.w, b.String())
	return err
}

func (t *tableWriter) close() error {
	if !t.started {
		return nil
	}
	return t.flush()
}

// minColumn is the narrowest a column of text is cut to: enough for a
// few characters and the ellipsis.
const minColumn = 6

// fitColumns returns the widths of columns whose widest cells are
// natural, so that the table, two spaces between columns, fits in width
// cells (0: no limit). Columns of numbers keep their width, since a cut
// number reads as another number; the columns of text share what is
// left, the widest cut first, none below minColumn. A table that cannot
// fit even so is as narrow as that, and the terminal wraps it.
func fitColumns(natural []int, text []bool, width int) []int {
	out := append([]int(nil), natural...)
	if width <= 0 {
		return out
	}
	total := 2 * (len(out) - 1)
	for _, w := range out {
		total += w
	}
	for total > width {
		widest := -1
		for i, w := range out {
			if text[i] && w > minColumn && (widest < 0 || w > out[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		out[widest]--
		total--
	}
	return out
}
