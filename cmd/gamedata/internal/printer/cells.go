package printer

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// identityColumns name a record: kind and ident for a package, id for a
// server. They come first, in this order, when a record has them, and a
// CSV file writes them in their exact form (ExactCell), so that an export
// can be resumed by them.
var identityColumns = []string{"kind", "ident", "id"}

// IsIdentityColumn reports whether name is one of identityColumns.
func IsIdentityColumn(name string) bool { return slices.Contains(identityColumns, name) }

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

// IDText is an identifier member as the service sent it, unsanitized: a
// string's text, a number as written, "" when null or absent. It is for
// ExactCell and for comparing identities, never for a terminal as it is.
func IDText(f gamedata.Fields, name string) string {
	if t, ok := f.Text(name); ok {
		return t.Unsanitized()
	}
	if raw, ok := f.Raw(name); ok {
		if _, number := f.Metric(name).Get(); number {
			return string(raw)
		}
	}
	return ""
}

// spreadsheetSafe keeps a text cell from being read as a formula: a cell
// that begins with =, +, @, a tab or a carriage return, or with a - that
// does not begin a plain number, gets a leading '.
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
	return s[0] == '-' && !isPlainNumber(s)
}

// isPlainNumber reports whether s is a decimal number as a spreadsheet
// reads one: digits, a point, an exponent. ParseFloat alone would also
// pass "-Inf" and hexadecimal floats, which a spreadsheet reads as a
// formula.
func isPlainNumber(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	return strings.Trim(s, "0123456789.eE+-") == ""
}
