package printer

import (
	"io"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
)

// tableWriter lines up columns for a person, a batch of rows at a time:
// each batch is padded to the widest cell seen so far, so a long listing
// stays aligned unless a later page holds a wider cell, and memory holds
// one batch. Widths are in terminal cells, so wide characters and emoji
// line up. On a terminal the table fits its width (fitTable); in a pipe
// nothing is cut.
type tableWriter struct {
	w       io.Writer
	columns []string
	// primary columns come first: the documented ones, or those --fields
	// names. The others, numeric members found, are left out first when
	// the table cannot fit the terminal.
	primary int
	batch   int
	width   int // the terminal's width; 0: no limit
	// notice says on stderr which columns were left out.
	notice  func(format string, args ...any)
	rows    [][]string // held, the header among them until it is written
	held    int        // records among rows
	widths  []int      // the widest cell of each column so far
	text    []bool     // columns that have held a cell other than a number
	shown   []bool     // the columns shown, chosen at the first flush
	started bool
}

func (t *tableWriter) Write(f gamedata.Fields) error {
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
			t.widths[i] = max(t.widths[i], textwidth.Width(c))
		}
	}
	kinds := make([]columnKind, len(t.columns))
	for i, c := range t.columns {
		switch {
		case !t.text[i]:
			kinds[i] = numberColumn
		case IsIdentityColumn(c):
			kinds[i] = identityColumn
		}
	}
	widths, shown := fitTable(t.widths, kinds, t.primary, t.width, t.shown)
	if t.shown == nil {
		t.shown = shown
		t.sayLeftOut()
	}
	var b strings.Builder
	for _, row := range t.rows {
		var line []string
		for i, c := range row {
			if !t.shown[i] {
				continue
			}
			line = append(line, textwidth.Pad(textwidth.Truncate(c, widths[i]), widths[i]))
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " "))
		b.WriteByte('\n')
	}
	t.rows, t.held = t.rows[:0], 0
	_, err := io.WriteString(t.w, b.String())
	return err
}

// sayLeftOut names the columns left out to fit the terminal, once.
func (t *tableWriter) sayLeftOut() {
	var out []string
	for i, s := range t.shown {
		if !s {
			out = append(out, t.columns[i])
		}
	}
	if len(out) > 0 && t.notice != nil {
		t.notice("%s left out of the table to fit the terminal's %d columns; -o csv, -o json or --fields show them",
			strings.Join(out, ", "), t.width)
	}
}

func (t *tableWriter) Close() error {
	if !t.started {
		return nil
	}
	return t.flush()
}

// columnKind is what a column holds, which decides how it may be cut.
type columnKind int

const (
	textColumn     columnKind = iota // cut first
	identityColumn                   // cut last: a cut ident or id names nothing
	numberColumn                     // never cut: a cut number reads as another one
)

// The narrowest a column of text is cut to: readable while columns are
// left out to make room, minColumn when nothing else can give way.
const (
	readableColumn = 16
	minColumn      = 6
)

// fitTable returns the widths of columns whose widest cells are natural,
// and which are shown (shown, when given, is kept), so that the table,
// two spaces between columns, fits in width cells (0: no limit). While
// it does not fit: text is cut, widest first, to readableColumn; the
// columns after primary are left out, from the last; text is cut to
// minColumn; then identifiers are. A table that cannot fit even so is as
// narrow as that, and the terminal wraps it.
func fitTable(natural []int, kinds []columnKind, primary, width int, shown []bool) ([]int, []bool) {
	if shown == nil {
		shown = make([]bool, len(natural))
		for i := range shown {
			shown[i] = true
		}
		if width > 0 {
			trial := cut(natural, kinds, shown, width, textColumn, readableColumn)
			for i := len(shown) - 1; i >= primary && tableWidth(trial, shown) > width; i-- {
				shown[i] = false
			}
		}
	}
	widths := append([]int(nil), natural...)
	if width > 0 {
		widths = cut(widths, kinds, shown, width, textColumn, minColumn)
		widths = cut(widths, kinds, shown, width, identityColumn, minColumn)
	}
	return widths, shown
}

// cut narrows the shown columns of kind, widest first and none below
// floor, until the table fits width.
func cut(widths []int, kinds []columnKind, shown []bool, width int, kind columnKind, floor int) []int {
	out := append([]int(nil), widths...)
	for total := tableWidth(out, shown); total > width; total-- {
		widest := -1
		for i, w := range out {
			if shown[i] && kinds[i] == kind && w > floor && (widest < 0 || w > out[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		out[widest]--
	}
	return out
}

// tableWidth is the width of the shown columns, two spaces between them.
func tableWidth(widths []int, shown []bool) int {
	total, n := 0, 0
	for i, w := range widths {
		if shown[i] {
			total, n = total+w, n+1
		}
	}
	return total + 2*max(n-1, 0)
}

// FitColumns returns the widths of columns of text whose widest cells are
// natural, cut widest first, none below minColumn, so that the table fits
// in width cells (0: no limit): a template's table.
func FitColumns(natural []int, width int) []int {
	kinds := make([]columnKind, len(natural))
	widths, _ := fitTable(natural, kinds, len(natural), width, nil)
	return widths
}
