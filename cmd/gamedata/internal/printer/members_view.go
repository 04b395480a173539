package printer

import (
	"encoding/json"
	"io"
	"slices"
	"strings"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
)

// WriteMembers writes a record for a person, a member a line: its name,
// then its value. Every member is shown, the identifiers first, then by
// name (or those fields names, in its order): null as null, a string
// sanitized, a number as sent, a list an element a line, an object as
// JSON. On a terminal (width > 0) a long value is cut to fit it.
func WriteMembers(w io.Writer, f gamedata.Fields, fields []string, width int) error {
	names := fields
	if names == nil {
		for _, c := range identityColumns {
			if _, ok := f.Raw(c); ok {
				names = append(names, c)
			}
		}
		for _, n := range f.Names() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	keys := make([]string, len(names))
	keyWidth := 0
	for i, n := range names {
		keys[i] = gamedata.NewUntrusted(n).String() // a member name the service chose
		keyWidth = max(keyWidth, textwidth.Width(keys[i]))
	}
	valueWidth := 0
	if width > 0 {
		valueWidth = max(width-keyWidth-2, minColumn)
	}
	var b strings.Builder
	for i, n := range names {
		for j, line := range memberLines(f, n) {
			key := ""
			if j == 0 {
				key = keys[i]
			}
			if valueWidth > 0 {
				line = textwidth.Truncate(line, valueWidth)
			}
			b.WriteString(strings.TrimRight(textwidth.Pad(key, keyWidth)+"  "+line, " ") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// memberLines are member name of f as lines of text: one for a scalar, an
// element each for a list. A member f lacks is shown as absent, which is
// not null.
func memberLines(f gamedata.Fields, name string) []string {
	raw, ok := f.Raw(name)
	switch {
	case !ok:
		return []string{"(absent)"}
	case string(raw) == "null":
		return []string{"null"}
	case raw[0] == '"':
		return []string{cell(f, name)}
	case raw[0] == '[':
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			break
		}
		if len(elems) == 0 {
			return []string{"[]"}
		}
		lines := make([]string, len(elems))
		for i, e := range elems {
			lines[i] = shownJSON(e)
		}
		return lines
	}
	return []string{shownJSON(raw)}
}

// shownJSON is a JSON value on one line, a string as its text, through
// the sanitizer.
func shownJSON(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return gamedata.NewUntrusted(s).String()
	}
	b, err := SafeJSON(raw)
	if err != nil {
		b = raw
	}
	return gamedata.NewUntrusted(string(b)).String()
}
