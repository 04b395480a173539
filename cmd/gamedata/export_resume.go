package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/gamedata-go/gamedata"
)

// identity names a record by its identifiers: kind/ident, or server:id.
func identity(f gamedata.Fields) string {
	if id := cell(f, "id"); id != "" && cell(f, "ident") == "" {
		return "server:" + id
	}
	return cell(f, "kind") + "/" + cell(f, "ident")
}

// reopen opens a cut export to continue it: it drops a last line cut in
// the middle, reads the identities of the rows already written, and, for
// CSV, the columns of its header.
func reopen(path, format string, columns []string) (*os.File, map[string]bool, []string, error) {
	body, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		f, err := os.Create(path)
		return f, nil, columns, err
	}
	if err != nil {
		return nil, nil, nil, err
	}
	if i := bytes.LastIndexByte(body, '\n'); i+1 != len(body) {
		body = body[:i+1] // a line cut in the middle was never a row
	}
	done := map[string]bool{}
	switch format {
	case "csv":
		columns, err = csvIdentities(body, done, columns)
	default:
		err = ndjsonIdentities(body, done)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("resume %s: %w", path, err)
	}
	if err := os.WriteFile(path, body, 0o644); err != nil {
		return nil, nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	return f, done, columns, err
}

func csvIdentities(body []byte, done map[string]bool, columns []string) ([]string, error) {
	rows, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil || len(rows) == 0 {
		return columns, err
	}
	header := rows[0]
	col := map[string]int{}
	for i, c := range header {
		col[c] = i
	}
	for _, row := range rows[1:] {
		get := func(name string) string {
			if i, ok := col[name]; ok && i < len(row) {
				return row[i]
			}
			return ""
		}
		rec, _ := fieldsOf(map[string]string{"kind": get("kind"), "ident": get("ident"), "id": get("id")})
		done[identity(rec)] = true
	}
	return header, nil
}

func ndjsonIdentities(body []byte, done map[string]bool) error {
	s := bufio.NewScanner(bytes.NewReader(body))
	s.Buffer(nil, 64<<20)
	for s.Scan() {
		var f gamedata.Fields
		if err := json.Unmarshal(s.Bytes(), &f); err != nil {
			return err
		}
		done[identity(f)] = true
	}
	return s.Err()
}
