package main

import (
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// identityColumns name a record: kind and ident for a package, id for a
// server. They come first, in this order, when a record has them.
var identityColumns = []string{"kind", "ident", "id"}

// cell is a member as text for a table or CSV cell: a string sanitized
// (publisher text is data, never terminal control), a number as written,
// null or absent as an empty cell, never 0.
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

// spreadsheetSafe keeps a text cell from being read as a formula: a cell
// that begins with =, +, @, a tab or a carriage return, or with a - that
// does not begin a number, gets a leading '.
func spreadsheetSafe(s string) string {
	if readAsFormula(s) {
		return "'" + s
	}
	return s
}

func readAsFormula(s string) bool {
	if s == "" {
		return false
	}
	if strings.ContainsRune("=+@\t\r", rune(s[0])) {
		return true
	}
	if s[0] == '-' {
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	}
	return false
}

// clip cuts s to n runes at most, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n || len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
