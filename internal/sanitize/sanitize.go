// Package sanitize makes text written by others safe to show: on a
// terminal, in a log line, a CSV cell or a prompt. It is the one list of
// the characters the SDK and its command line refuse to pass on.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// String returns s with what could steer a terminal or a reader removed:
// terminal escape sequences (CSI, OSC, DCS and the like, in their 7-bit and
// 8-bit forms) whole, other C0 and C1 control characters and DEL,
// bidirectional overrides, embeddings, isolates and marks, and invisible
// characters (zero-width spaces and joiners, the byte-order mark, tag
// characters). Tab, newline, carriage return and the line and paragraph
// separators become a space, and invalid UTF-8 becomes U+FFFD. Applying it
// to its own output changes nothing.
func String(s string) string {
	if Unchanged(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case shown(r, size):
			b.WriteString(s[i : i+size])
			i += size
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		case r == 0x1b:
			i += escapeLen(s[i:])
		case startsSequence(r):
			i += size + sequenceBodyLen(s[i+size:], r == 0x9b)
		case isLineBreak(r):
			b.WriteByte(' ')
			i += size
		default: // other controls, bidi and invisible characters
			i += size
		}
	}
	return b.String()
}

// Unchanged reports whether String would return s as it is, without
// allocating: the test of which text is safe to show as sent.
func Unchanged(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !shown(r, size) {
			return false
		}
		i += size
	}
	return true
}

// shown reports whether String keeps a rune of size bytes as it is.
func shown(r rune, size int) bool {
	return !(r == utf8.RuneError && size == 1) && !isControl(r) && !isBidi(r) && !isInvisible(r) && !isLineBreak(r)
}

// startsSequence reports the 8-bit forms of CSI, DCS, OSC, SOS, PM and
// APC, which start a sequence just like ESC [ and friends do.
func startsSequence(r rune) bool {
	return r == 0x9b || r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f
}

// isLineBreak reports the characters String turns into a space.
func isLineBreak(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

func isControl(r rune) bool { return r < 0x20 || (r >= 0x7f && r <= 0x9f) }

func isBidi(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		r >= 0x2066 && r <= 0x2069,            // LRI, RLI, FSI, PDI
		r == 0x200e, r == 0x200f, r == 0x061c: // LRM, RLM, ALM
		return true
	}
	return false
}

// isInvisible reports the format characters that show nothing yet carry
// text a reader cannot see: zero-width spaces and joiners, the word
// joiner and invisible operators, the byte-order mark, and the tag
// characters, which can spell out hidden instructions for a model.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200d, // ZWSP, ZWNJ, ZWJ
		r >= 0x2060 && r <= 0x2064,   // WJ, invisible operators
		r == 0xfeff,                  // BOM, ZWNBSP
		r >= 0xe0000 && r <= 0xe007f: // tags
		return true
	}
	return false
}

// escapeLen returns the length of the escape sequence at the start of s,
// which begins with ESC. An ESC that starts no known sequence counts alone.
func escapeLen(s string) int {
	if len(s) < 2 {
		return 1
	}
	switch c := s[1]; {
	case c == '[':
		return 2 + sequenceBodyLen(s[2:], true)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return 2 + sequenceBodyLen(s[2:], false)
	case c >= 0x20 && c <= 0x2f:
		return nFLen(s)
	case c >= 0x30 && c <= 0x7e:
		return 2
	}
	return 1
}

// nFLen returns the length of an nF escape sequence at the start of s:
// ESC, intermediate bytes, then one final byte.
func nFLen(s string) int {
	n := 1
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
		n++
	}
	if n < len(s) && s[n] >= 0x30 && s[n] <= 0x7e {
		n++
	}
	return n
}

// sequenceBodyLen returns the length of a sequence body: for CSI, parameter
// and intermediate bytes up to and including the final byte; for string
// sequences (OSC, DCS, SOS, PM, APC), everything up to and including the
// terminator (BEL, ESC \ or the 8-bit ST). An unterminated sequence runs to
// the end of s, so no part of it can reach a terminal.
func sequenceBodyLen(s string, csi bool) int {
	if csi {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				return i
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
