package printer

import (
	"encoding/csv"
	"io"

	"github.com/gamedata-go/gamedata"
)

// csvWriter writes a header, then a row a record, each flushed at once: a
// cut export ends on a whole row.
type csvWriter struct {
	w       *csv.Writer
	columns []string
	header  bool // the header is written
}

func newCSVWriter(w io.Writer, columns []string, header bool) *csvWriter {
	return &csvWriter{w: csv.NewWriter(w), columns: columns, header: header}
}

func (c *csvWriter) Write(f gamedata.Fields) error {
	if !c.header {
		c.header = true
		names := make([]string, len(c.columns))
		for i, col := range c.columns {
			names[i] = ExactCell(col) // a member name the service chose
		}
		c.w.Write(names)
	}
	row := make([]string, len(c.columns))
	for i, col := range c.columns {
		row[i] = csvCell(f, col)
	}
	c.w.Write(row)
	c.w.Flush()
	return c.w.Error()
}

func (c *csvWriter) Close() error {
	c.w.Flush()
	return c.w.Error()
}

// csvCell is member col of f as a CSV cell: an identifier in its exact
// form, anything else sanitized and guarded against formulas.
func csvCell(f gamedata.Fields, col string) string {
	if IsIdentityColumn(col) {
		return ExactCell(IDText(f, col))
	}
	return spreadsheetSafe(cell(f, col))
}
