package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

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
		return &csvWriter{w: csv.NewWriter(w), columns: columns}
	case "table":
		return &tableWriter{w: tabwriter.NewWriter(w, 0, 0, 2, ' ', 0), columns: columns}
	}
	return &ndjsonWriter{w: w}
}

// printAll writes records in the app's format to stdout, with columns
// chosen from all of them.
func (a *app) printAll(records []gamedata.Fields, columns []string) error {
	if columns == nil {
		columns = chooseColumns(records)
	}
	w := newWriter(a.format(), a.stdout, columns)
	for _, f := range records {
		if err := w.write(f); err != nil {
			return err
		}
	}
	return w.close()
}

type ndjsonWriter struct{ w io.Writer }

func (n *ndjsonWriter) write(f gamedata.Fields) error {
	line, err := jsonLine(f)
	if err != nil {
		return err
	}
	_, err = n.w.Write(append(line, '\n'))
	return err
}

func (n *ndjsonWriter) close() error { return nil }

// jsonWriter writes one JSON array, so its output is one document.
type jsonWriter struct {
	w io.Writer
	n int
}

func (j *jsonWriter) write(f gamedata.Fields) error {
	line, err := jsonLine(f)
	if err != nil {
		return err
	}
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	_, err = fmt.Fprintf(j.w, "%s%s", sep, line)
	return err
}

func (j *jsonWriter) close() error {
	if j.n == 0 {
		_, err := io.WriteString(j.w, "[]\n")
		return err
	}
	_, err := io.WriteString(j.w, "\n]\n")
	return err
}

// jsonLine is a record as sent, on one line, with the characters that
// could steer a terminal escaped: the same JSON, safe to print.
func jsonLine(f gamedata.Fields) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, f.JSON()); err != nil {
		return nil, err
	}
	return escapeInvisible(b.Bytes()), nil
}

// escapeInvisible writes DEL, C1 controls, bidi controls and invisible
// characters, which JSON allows raw, as \u escapes.
func escapeInvisible(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if !invisible(r) {
			if out != nil {
				out = append(out, b[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(b)+16), b[:i]...)
		}
		if r > 0xffff {
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

func invisible(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2060 && r <= 0x2069) || r == 0x061c ||
		r == 0xfeff || (r >= 0xe0000 && r <= 0xe007f)
}

type csvWriter struct {
	w       *csv.Writer
	columns []string
	started bool
}

func (c *csvWriter) write(f gamedata.Fields) error {
	if !c.started {
		c.started = true
		if c.columns == nil {
			c.columns = chooseColumns([]gamedata.Fields{f})
		}
		c.w.Write(c.columns)
	}
	row := make([]string, len(c.columns))
	for i, col := range c.columns {
		row[i] = spreadsheetSafe(cell(f, col))
	}
	c.w.Write(row)
	c.w.Flush() // a row at a time: a cut export ends on a whole row
	return c.w.Error()
}

func (c *csvWriter) close() error {
	c.w.Flush()
	return c.w.Error()
}

// tableWriter lines up columns for a person; long cells are cut short.
type tableWriter struct {
	w       *tabwriter.Writer
	columns []string
	started bool
}

func (t *tableWriter) write(f gamedata.Fields) error {
	if !t.started {
		t.started = true
		if t.columns == nil {
			t.columns = chooseColumns([]gamedata.Fields{f})
		}
		fmt.Fprintln(t.w, strings.ToUpper(strings.Join(t.columns, "\t")))
	}
	row := make([]string, len(t.columns))
	for i, col := range t.columns {
		row[i] = clip(cell(f, col), 40)
	}
	_, err := fmt.Fprintln(t.w, strings.Join(row, "\t"))
	return err
}

func (t *tableWriter) close() error { return t.w.Flush() }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// cell is a member as text: a string sanitized (publisher text is data,
// never terminal control), a number as written, null or absent as an
// empty cell, never 0.
func cell(f gamedata.Fields, name string) string {
	raw, ok := f.Raw(name)
	switch {
	case !ok || string(raw) == "null":
		return ""
	case raw[0] == '"':
		t, _ := f.Text(name)
		return t.String()
	}
	if v, ok := f.Metric(name).Get(); ok {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return gamedata.NewUntrusted(string(raw)).String()
}

// spreadsheetSafe keeps a text cell from being read as a formula.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+@\t\r", rune(s[0])) {
		return "'" + s
	}
	if s != "" && s[0] == '-' {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return "'" + s
		}
	}
	return s
}

// identifierColumns come first, in this order, when a record has them.
var identifierColumns = []string{"kind", "ident", "id"}

// chooseColumns picks the columns of records: their identifiers, their
// title (or name), then every member that is a number or null in all of
// them and a number in one at least.
func chooseColumns(records []gamedata.Fields) []string {
	present := map[string]bool{}
	for _, f := range records {
		for _, n := range f.Names() {
			present[n] = true
		}
	}
	var cols []string
	for _, c := range identifierColumns {
		if present[c] {
			cols = append(cols, c)
		}
	}
	for _, c := range []string{"title", "name", "capturedAt", "time"} {
		if present[c] {
			cols = append(cols, c)
			break
		}
	}
	if present["partialCoverage"] {
		cols = append(cols, "partialCoverage") // true: the totals are lower bounds
	}
	var metrics []string
	for n := range present {
		if slices.Contains(cols, n) || !numeric(records, n) {
			continue
		}
		metrics = append(metrics, n)
	}
	slices.Sort(metrics)
	return append(cols, metrics...)
}

// numeric reports whether member name is a number or null wherever it is
// sent, and a number once at least.
func numeric(records []gamedata.Fields, name string) bool {
	seen := false
	for _, f := range records {
		m := f.Metric(name)
		switch {
		case m.Valid():
			seen = true
		case m.Present() && !m.IsNull():
			return false
		}
	}
	return seen
}

// fieldsOf turns any value into Fields through its JSON.
func fieldsOf(v any) (gamedata.Fields, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return gamedata.Fields{}, err
	}
	var f gamedata.Fields
	err = json.Unmarshal(b, &f)
	return f, err
}
