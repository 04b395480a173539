package printer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// ExactCell writes s, an identifier or a member name the service chose,
// as a CSV cell that is safe to show and to open in a spreadsheet and
// that reads back exactly: no two strings are written alike, so an
// export resumed by the identities it wrote never skips a record for
// another, nor writes one twice.
//
//   - A backslash is written \\.
//   - A character the sanitizer would remove or change (a control
//     character, DEL, a tab or line break, a bidi or invisible character)
//     is written \uXXXX, or \UXXXXXXXX above U+FFFF; a byte that is not
//     UTF-8 is written \xXX.
//   - A cell that would begin with =, +, @, ' or a - that does not begin
//     a plain number gets a leading ', the formula guard of every CSV
//     cell. Since a leading ' is guarded too, the guard always comes off.
//
// Everything else is written as it is: "neon-miner", "with space",
// "ünïcode" and "players" read as themselves.
func ExactCell(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02X`, s[i])
		case !gamedata.NewUntrusted(s[i : i+size]).Inert():
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	out := b.String()
	if readAsFormula(out) || strings.HasPrefix(out, "'") {
		return "'" + out
	}
	return out
}

// ReadExactCell returns the string ExactCell wrote as c.
func ReadExactCell(c string) (string, error) {
	c = strings.TrimPrefix(c, "'")
	if !strings.Contains(c, `\`) {
		return c, nil
	}
	var b strings.Builder
	for i := 0; i < len(c); i++ {
		if c[i] != '\\' {
			b.WriteByte(c[i])
			continue
		}
		if i+1 == len(c) {
			return "", errors.New("a cell ends in a lone backslash")
		}
		n := escapeDigits(c[i+1])
		if n < 0 || i+2+n > len(c) {
			return "", fmt.Errorf("a cell holds %q, which is not an escape this program writes", c[i:min(i+2+n, len(c))])
		}
		if n == 0 {
			b.WriteByte('\\')
			i++
			continue
		}
		v, err := strconv.ParseUint(c[i+2:i+2+n], 16, 32)
		if err != nil {
			return "", fmt.Errorf("a cell holds %q, which is not an escape this program writes", c[i:i+2+n])
		}
		if n == 2 {
			b.WriteByte(byte(v))
		} else {
			b.WriteRune(rune(v))
		}
		i += 1 + n
	}
	return b.String(), nil
}

// escapeDigits is the number of hexadecimal digits after a backslash and
// e in an escape ExactCell writes, or -1 when it writes none that begins so.
func escapeDigits(e byte) int {
	switch e {
	case '\\':
		return 0
	case 'x':
		return 2
	case 'u':
		return 4
	case 'U':
		return 8
	}
	return -1
}
