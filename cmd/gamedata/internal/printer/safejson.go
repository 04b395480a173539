package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// JSONLine is a record as sent, on one line and safe to print (SafeJSON).
func JSONLine(f gamedata.Fields) ([]byte, error) { return SafeJSON(f.JSON()) }

// SafeJSON compacts the JSON b onto one line and writes, in its strings
// and member names, every character the sanitizer would not show as it is
// (C0 and C1 controls, DEL, bidi and invisible characters, line
// separators) as a \u escape, and each byte that is not UTF-8 as \ufffd,
// as encoding/json does. The result is valid UTF-8, inert on any
// terminal, 8-bit ones included, and decodes to the same strings but for
// the invalid bytes.
func SafeJSON(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	b = unescapeHTML(buf.Bytes())
	printable := func(c byte) bool { return c >= 0x20 && c < 0x7f }
	i := 0
	for i < len(b) && printable(b[i]) {
		i++
	}
	if i == len(b) {
		return b, nil
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for i < len(b) {
		if printable(b[i]) {
			out = append(out, b[i])
			i++
			continue
		}
		// Outside strings a compact document is printable ASCII, so
		// anything else here is inside a string.
		j := i
		for j < len(b) && !printable(b[j]) {
			j++
		}
		out = appendShown(out, b[i:j])
		i = j
	}
	return out, nil
}

// unescapeHTML writes '&', '<' and '>' as they are where b, compact
// JSON, escapes them as \u0026, \u003c and \u003e: the library keeps a
// record in the form json.Marshal writes, which escapes them for HTML, and
// a person reading the JSON on a terminal wants "Tom & Jerry". They are
// inert, and the JSON decodes to the same strings.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := b[:0:0]
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if i+5 < len(b) && b[i+1] == 'u' {
			switch strings.ToLower(string(b[i+2 : i+6])) {
			case "0026", "003c", "003e":
				r, _ := strconv.ParseUint(string(b[i+2:i+6]), 16, 8)
				out = append(out, byte(r))
				i += 5
				continue
			}
		}
		// Any other escape is kept whole, so that the escaped backslash
		// of \\u0026 is never read as the start of an escape.
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

// appendShown appends run, a run of bytes from a JSON string, with what a
// terminal could act on escaped.
func appendShown(out, run []byte) []byte {
	if gamedata.NewUntrusted(string(run)).Inert() {
		return append(out, run...)
	}
	for k := 0; k < len(run); {
		r, size := utf8.DecodeRune(run[k:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case gamedata.NewUntrusted(string(run[k : k+size])).Inert():
			out = append(out, run[k:k+size]...)
		case r > 0xffff:
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		k += size
	}
	return out
}
