package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gamedata-go/gamedata"
)

// openExport opens path for an export: made anew, or with resume, the cut
// export there reopened after its last whole line (a file that does not
// exist is made).
func openExport(path, format string, resume bool) (*os.File, resumed, error) {
	if !resume {
		f, err := os.Create(path)
		return f, resumed{}, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, resumed{}, err
	}
	r, size, err := readWritten(f, format)
	if err == nil {
		err = f.Truncate(size) // a line cut in the middle was never a row
	}
	if err == nil {
		_, err = f.Seek(size, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, resumed{}, fmt.Errorf("resume %s: %w", path, err)
	}
	return f, r, nil
}

// resumed is what a cut export holds already.
type resumed struct {
	// done holds the identities of the records written, as
	// writtenIdentity gives them.
	done map[string]bool
	// header is true when a CSV file holds its whole header, whose
	// columns, read back, are columns.
	header  bool
	columns []string
}

// readWritten reads the whole lines of a cut export: for CSV its header
// and the identity of each row, for NDJSON the identity of each line. It
// returns them and the size of those lines: a last line without its
// newline was cut in the middle, and is not counted.
func readWritten(r io.Reader, format string) (resumed, int64, error) {
	res := resumed{done: map[string]bool{}}
	br := bufio.NewReader(r)
	var size int64
	col := map[string]int{}
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			return res, size, nil
		}
		if err != nil {
			return res, 0, err
		}
		size += int64(len(line))
		switch {
		case format != "csv":
			var f gamedata.Fields
			if err := json.Unmarshal(line, &f); err != nil {
				return res, 0, fmt.Errorf("line %d: %w", n, err)
			}
			res.done[writtenIdentity(f)] = true
		case !res.header:
			if res.columns, err = readExactCells(line, nil); err != nil {
				return res, 0, fmt.Errorf("header: %w", err)
			}
			res.header = true
			for i, c := range res.columns {
				col[c] = i
			}
		default:
			cells, err := readExactCells(line, func(i int) bool { return i < len(res.columns) && isIdentityColumn(res.columns[i]) })
			if err != nil {
				return res, 0, fmt.Errorf("line %d: %w", n, err)
			}
			get := func(name string) string {
				if i, ok := col[name]; ok && i < len(cells) {
					return cells[i]
				}
				return ""
			}
			res.done[identityKey(get("kind"), get("ident"), get("id"))] = true
		}
	}
}

// readExactCells reads one line of CSV this program wrote, with the cells
// exact says (all when it is nil), which it wrote in their exact form
// (exactCell), read back.
func readExactCells(line []byte, exact func(i int) bool) ([]string, error) {
	cells, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil {
		return nil, err
	}
	for i, c := range cells {
		if exact != nil && !exact(i) {
			continue
		}
		if cells[i], err = readExactCell(c); err != nil {
			return nil, fmt.Errorf("%w: this file was not written by this version of gamedata; export again without --resume", err)
		}
	}
	return cells, nil
}

// writtenIdentity is the identity of record f as an export writes it. A
// resume compares the identities it reads back from the file with those
// of the directory's entries through this one transform, so equal
// identities are the same record: a row is never written twice, nor
// skipped for another.
func writtenIdentity(f gamedata.Fields) string {
	return identityKey(idText(f, "kind"), idText(f, "ident"), idText(f, "id"))
}

// identityKey names a record by its identifiers in their exact form: a
// server by its id alone (its detail record has no kind), a package by
// its kind and ident. exactCell writes no NUL and no newline, so the
// separators cannot be forged.
func identityKey(kind, ident, id string) string {
	if id != "" && ident == "" {
		return "\x00" + exactCell(id)
	}
	return exactCell(kind) + "\n" + exactCell(ident)
}
