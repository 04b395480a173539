// Package resume continues a cut export: it reads back what the file
// holds (NDJSON lines or CSV rows, their identities in their exact form),
// checks that this export can continue it exactly, and sets the file to
// write after its last whole line; a file it cannot continue is refused
// with what to do.
package resume

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
)

// File is what an export writes, which a resume must find in the
// file it continues: its format, the identity columns its rows are told
// apart by, and its columns.
type File struct {
	Path   string
	Format string
	// Identity are the members a record is told apart by: kind and ident
	// for packages, id for dedicated servers.
	Identity []string
	// Fields are the columns --fields names, or nil for the default ones,
	// which always hold known.
	Fields []string
	Known  []string
}

// Open opens ef's file for an export: made anew, or with resume,
// the cut export there read and checked (a file that does not exist is
// made), to be continued after its last whole line once its kind is
// checked too (Written.ContinueAt). A file this export cannot continue
// exactly is refused, with what to do, before anything is sent or
// written.
func Open(ef File, resume bool) (*os.File, Written, error) {
	if !resume {
		f, err := os.Create(ef.Path)
		return f, Written{}, err
	}
	f, err := os.OpenFile(ef.Path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, Written{}, err
	}
	r, size, err := readWritten(f, ef)
	if err == nil {
		err = ef.check(r)
	}
	r.size = size
	if err != nil {
		f.Close()
		var ue message.UsageError
		if errors.As(err, &ue) {
			return nil, Written{}, message.Usagef("export --resume %s: %v", ef.Path, ue.Err)
		}
		return nil, Written{}, fmt.Errorf("export --resume %s: %w", ef.Path, err)
	}
	return f, r, nil
}

// Written is what a cut export holds already.
type Written struct {
	// Done holds the identities of the records written, as
	// IdentityOf gives them.
	Done map[string]bool
	// kinds are the package kinds of the records written.
	kinds map[string]bool
	// Header is true when a CSV file holds its whole header, whose
	// columns, read back, are Columns.
	Header  bool
	Columns []string
	// size is that of the whole lines: where the export goes on.
	size int64
}

// ContinueAt drops from f what follows the last whole line (a line cut
// in the middle was never a row) and sets it to write there.
func (r Written) ContinueAt(f *os.File) error {
	if err := f.Truncate(r.size); err != nil {
		return err
	}
	_, err := f.Seek(r.size, io.SeekStart)
	return err
}

// startOver is what every refusal ends with: the way out that always
// works.
const startOver = "or export again without --resume (to another --out to keep this file)"

// check refuses a CSV file whose columns are not those this export
// writes: without the identity columns, no row can be told from those
// to come; with other columns, its rows would not line up.
func (ef File) check(r Written) error {
	if ef.Format != "csv" || !r.Header {
		return nil
	}
	var missing []string
	for _, c := range ef.Identity {
		if !slices.Contains(r.Columns, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return message.Usagef("it has no %s column, by which a row it holds is told from those to come; a resume must not write a row twice; %s",
			strings.Join(missing, " or "), startOver)
	}
	own := strings.Join(r.Columns, ",")
	if ef.Fields != nil {
		if want := printer.WithIdentity(ef.Identity, ef.Fields); !slices.Equal(want, r.Columns) {
			return message.Usagef("its columns are %s, not %s as --fields asks; resume with --fields %s, %s",
				own, strings.Join(want, ","), own, startOver)
		}
		return nil
	}
	for _, c := range ef.Known {
		if !slices.Contains(r.Columns, c) {
			return message.Usagef("its columns are %s, which --fields chose, not the default ones; resume with --fields %s, %s", own, own, startOver)
		}
	}
	return nil
}

// CheckKinds refuses a file whose rows are packages of another kind than
// served, the kind the service lists for the export's --kind ("" when it
// lists every kind).
func CheckKinds(path string, r Written, served string) error {
	if served == "" {
		return nil
	}
	for k := range r.kinds {
		if k != served {
			return message.Usagef("export --resume %s: it holds packages of kind %q, and this export is of kind %q; resume with --kind %s, %s",
				path, k, served, k, startOver)
		}
	}
	return nil
}

// readWritten reads the whole lines of a cut export: for CSV its header
// and the identity of each row, for NDJSON the identity of each line. It
// returns them and the size of those lines: a last line without its
// newline was cut in the middle, and is not counted. A file in the other
// format, or lines without ef's identity, are refused.
func readWritten(r io.Reader, ef File) (Written, int64, error) {
	w := writtenLines{ef: ef, res: Written{Done: map[string]bool{}, kinds: map[string]bool{}}}
	br := bufio.NewReader(r)
	var size int64
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return w.res, size, nil
		}
		if err != nil {
			return w.res, 0, err
		}
		size += int64(len(line))
		switch {
		case ef.Format != "csv":
			err = w.ndjsonLine(n, line)
		case !w.res.Header:
			err = w.csvHeader(line)
		default:
			err = w.csvRow(n, line)
		}
		if err != nil {
			return w.res, 0, err
		}
	}
}

// writtenLines is what readWritten has read back of a cut export.
type writtenLines struct {
	ef  File
	res Written
	// col is the position of each column of a CSV header, by name.
	col map[string]int
}

// ndjsonLine reads back line n of an NDJSON export.
func (w *writtenLines) ndjsonLine(n int, line []byte) error {
	var f gamedata.Fields
	if err := json.Unmarshal(line, &f); err != nil {
		if !looksJSON(line) {
			return message.Usagef("line %d is not a JSON object: this is not NDJSON; if it is CSV, resume with -o csv, %s", n, startOver)
		}
		return fmt.Errorf("line %d: %w", n, err)
	}
	// The ident (a server's id) names a record; a detail record may leave
	// its kind out.
	if c := w.ef.Identity[len(w.ef.Identity)-1]; printer.IDText(f, c) == "" {
		return message.Usagef("line %d has no %s, by which a record is told from those to come; is it an export of another --kind? %s", n, c, startOver)
	}
	w.res.Done[IdentityOf(f)] = true
	w.addKind(printer.IDText(f, "kind"))
	return nil
}

// csvHeader reads back the header of a CSV export.
func (w *writtenLines) csvHeader(line []byte) error {
	if looksJSON(line) {
		return message.Usagef("it holds NDJSON, not CSV; resume with -o ndjson, %s", startOver)
	}
	columns, err := readExactCells(line, nil)
	if err != nil {
		return fmt.Errorf("header: %w", err)
	}
	w.res.Columns, w.res.Header = columns, true
	w.col = make(map[string]int, len(columns))
	for i, c := range columns {
		w.col[c] = i
	}
	return nil
}

// csvRow reads back row n of a CSV export, after its header.
func (w *writtenLines) csvRow(n int, line []byte) error {
	columns := w.res.Columns
	cells, err := readExactCells(line, func(i int) bool { return i < len(columns) && printer.IsIdentityColumn(columns[i]) })
	if err != nil {
		return fmt.Errorf("line %d: %w", n, err)
	}
	get := func(name string) string {
		if i, ok := w.col[name]; ok && i < len(cells) {
			return cells[i]
		}
		return ""
	}
	w.res.Done[identityKey(get("kind"), get("ident"), get("id"))] = true
	w.addKind(get("kind"))
	return nil
}

// addKind notes the kind of a package record read back; a server's
// record has no kind to check.
func (w *writtenLines) addKind(kind string) {
	if kind != "" && slices.Contains(w.ef.Identity, "ident") {
		w.res.kinds[kind] = true
	}
}

// looksJSON tells whether a line begins as a JSON object does.
func looksJSON(line []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) }

// readExactCells reads one line of CSV this program wrote, with the cells
// exact says (all when it is nil), which it wrote in their exact form
// (printer.ExactCell), read back.
func readExactCells(line []byte, exact func(i int) bool) ([]string, error) {
	cells, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil {
		return nil, err
	}
	for i, c := range cells {
		if exact != nil && !exact(i) {
			continue
		}
		if cells[i], err = printer.ReadExactCell(c); err != nil {
			return nil, fmt.Errorf("%w: this file was not written by this version of gamedata; export again without --resume", err)
		}
	}
	return cells, nil
}

// IdentityOf is the identity of record f as an export writes it. A
// resume compares the identities it reads back from the file with those
// of the directory's entries through this one transform, so equal
// identities are the same record: a row is never written twice, nor
// skipped for another.
func IdentityOf(f gamedata.Fields) string {
	return identityKey(printer.IDText(f, "kind"), printer.IDText(f, "ident"), printer.IDText(f, "id"))
}

// identityKey names a record by its identifiers in their exact form: a
// server by its id alone (its detail record has no kind), a package by
// its kind and ident. printer.ExactCell writes no NUL and no newline, so the
// separators cannot be forged.
func identityKey(kind, ident, id string) string {
	if id != "" && ident == "" {
		return "\x00" + printer.ExactCell(id)
	}
	return printer.ExactCell(kind) + "\n" + printer.ExactCell(ident)
}

// Identity are the identity members of an export of kind.
func Identity(kind string) []string {
	if kind == "server" {
		return []string{"id"}
	}
	return []string{"kind", "ident"}
}
