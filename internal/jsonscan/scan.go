// Package jsonscan reads JSON in one pass over the bytes, validating as
// strictly as encoding/json and allocating nothing, so responses decode at
// memory speed and keep their members as subslices of the body. A Scanner
// walks objects and arrays, hands back values as raw bytes, and reads
// numbers, flags and nulls straight into Go values: the decoders of the
// SDK are written on top of it.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// maxDepth bounds nesting as encoding/json does, so a nesting bomb fails
// fast instead of exhausting the stack.
const maxDepth = 10000

var errUnexpectedEnd = errors.New("unexpected end of JSON input")

// Scanner reads one JSON document. Its methods consume what they read; a
// method that reports an error leaves the Scanner anywhere, and the
// document is to be given up.
type Scanner struct {
	b     []byte
	i     int
	depth int
	// recast: the bytes read held what encoding/json writes otherwise
	// (see Canonical).
	recast bool
}

// New returns a Scanner at the start of b.
func New(b []byte) Scanner { return Scanner{b: b} }

// Rest returns the bytes not yet read.
func (s *Scanner) Rest() []byte { return s.b[s.i:] }

// Offset returns how many bytes have been read.
func (s *Scanner) Offset() int { return s.i }

// Advance consumes n bytes of Rest that the caller read itself: a decoder
// of a fixed shape walks its usual values at its own pace, and hands back
// to the Scanner what it does not take. The n bytes must be whole values
// and the punctuation between them, with no white space, closed at the
// depth they opened.
func (s *Scanner) Advance(n int) { s.i += n }

// WS consumes white space.
func (s *Scanner) WS() {
	for s.i < len(s.b) && space[s.b[s.i]] {
		s.i++
		s.recast = true
	}
}

// space holds the bytes of JSON white space: a table keeps WS, called
// between every two tokens, within the compiler's inlining budget.
var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// Canonical reports whether the bytes read so far are as json.Marshal
// writes a json.RawMessage: no white space between tokens, and no '<',
// '>', '&', U+2028 or U+2029 unescaped in a string. A value in that form
// round-trips through encoding/json byte for byte. White space before
// the first token counts: trim it before scanning.
func (s *Scanner) Canonical() bool { return !s.recast }

func (s *Scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", s.i, fmt.Sprintf(format, args...))
}

// invalid reports the byte at s.i, or the end of input.
func (s *Scanner) invalid(context string) error {
	if s.i >= len(s.b) {
		return errUnexpectedEnd
	}
	return s.errorf("invalid character %q %s", s.b[s.i], context)
}

// expect consumes c after optional white space.
func (s *Scanner) expect(c byte, context string) error {
	s.WS()
	if s.i >= len(s.b) || s.b[s.i] != c {
		return s.invalid(context)
	}
	s.i++
	return nil
}

// Skip consumes one value, validating it.
func (s *Scanner) Skip() error {
	s.WS()
	if s.i >= len(s.b) {
		return errUnexpectedEnd
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.Object(func([]byte) error { return s.Skip() })
	case c == '[':
		return s.array(s.Skip)
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := s.number()
		return err
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.invalid("looking for beginning of value")
}

// Value consumes one value and returns its bytes.
func (s *Scanner) Value() ([]byte, error) {
	s.WS()
	start := s.i
	if err := s.Skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

func (s *Scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) {
		return errUnexpectedEnd
	}
	if string(s.b[s.i:s.i+len(lit)]) != lit {
		return s.errorf("invalid literal, want %s", lit)
	}
	s.i += len(lit)
	return nil
}

// Object consumes an object, calling member with each member's raw name
// (without quotes, escapes left as they are: see NameIs and Unquote);
// member must consume the value.
func (s *Scanner) Object(member func(name []byte) error) error {
	more, err := s.Open('{')
	if err != nil {
		return err
	}
	for more {
		s.WS()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			return s.invalid("looking for beginning of object key string")
		}
		start, end, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':', "after object key"); err != nil {
			return err
		}
		if err := member(s.b[start:end]); err != nil {
			return err
		}
		if more, err = s.Next('}'); err != nil {
			return err
		}
	}
	return nil
}

// array consumes an array, calling element for each element; element must
// consume it.
func (s *Scanner) array(element func() error) error {
	more, err := s.Open('[')
	if err != nil {
		return err
	}
	for more {
		if err := element(); err != nil {
			return err
		}
		if more, err = s.Next(']'); err != nil {
			return err
		}
	}
	return nil
}

// Open consumes the opening byte of an object ('{') or an array ('['),
// one level deeper, and reports whether a first member or element
// follows, or the container closed at once. Next reads on from there.
func (s *Scanner) Open(opening byte) (more bool, err error) {
	closing, context := byte('}'), "looking for beginning of object"
	if opening == '[' {
		closing, context = ']', "looking for beginning of array"
	}
	if err := s.expect(opening, context); err != nil {
		return false, err
	}
	if s.depth++; s.depth > maxDepth {
		return false, errors.New("exceeded max depth")
	}
	s.WS()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		s.depth--
		return false, nil
	}
	return true, nil
}

// Next consumes the comma before a further member or element of the
// container that closing ('}' or ']') ends, or that closing byte, which
// ends the level Open began, and reports which it was.
func (s *Scanner) Next(closing byte) (more bool, err error) {
	s.WS()
	if s.i >= len(s.b) {
		return false, errUnexpectedEnd
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		return true, nil
	case closing:
		s.i++
		s.depth--
		return false, nil
	}
	if closing == '}' {
		return false, s.invalid("after object key:value pair")
	}
	return false, s.invalid("after array element")
}

// Is reports, after white space, whether c comes next, without consuming
// it.
func (s *Scanner) Is(c byte) bool {
	s.WS()
	return s.i < len(s.b) && s.b[s.i] == c
}

// Null consumes null, and reports whether it was there.
func (s *Scanner) Null() bool {
	if len(s.b)-s.i >= 4 && string(s.b[s.i:s.i+4]) == "null" {
		s.i += 4
		return true
	}
	return false
}

// str consumes a string at s.i and returns the bounds of its contents.
func (s *Scanner) str() (start, end int, err error) {
	s.i++ // the opening quote
	start = s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			end = s.i
			s.i++
			return start, end, nil
		case c == '\\':
			if err := s.escape(); err != nil {
				return 0, 0, err
			}
		case c < 0x20:
			return 0, 0, s.errorf("invalid character %q in string literal", c)
		case c == '<' || c == '>' || c == '&' || c == 0xe2 && isLineSeparator(s.b[s.i:]):
			s.recast = true
			s.i++
		default:
			s.i++
		}
	}
	return 0, 0, errUnexpectedEnd
}

// isLineSeparator reports whether b starts with U+2028 or U+2029, which
// encoding/json escapes in a string it writes.
func isLineSeparator(b []byte) bool {
	return len(b) >= 3 && b[1] == 0x80 && (b[2] == 0xa8 || b[2] == 0xa9)
}

// escape consumes the escape sequence at s.i, inside a string.
func (s *Scanner) escape() error {
	if s.i+1 >= len(s.b) {
		return errUnexpectedEnd
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
	case 'u':
		if len(s.b)-s.i < 6 {
			return errUnexpectedEnd
		}
		for _, h := range s.b[s.i+2 : s.i+6] {
			if !isHex(h) {
				return s.errorf("invalid character %q in \\u hexadecimal character escape", h)
			}
		}
		s.i += 6
	default:
		return s.errorf("invalid escape %q in string literal", s.b[s.i+1])
	}
	return nil
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// End checks that nothing but white space follows the top-level value.
func (s *Scanner) End() error {
	s.WS()
	if s.i < len(s.b) {
		return s.invalid("after top-level value")
	}
	return nil
}

// Unquote returns the text of a validated JSON string from the bytes
// between its quotes, a member's name or a string value, as encoding/json
// reads it (escapes decoded, invalid UTF-8 replaced by U+FFFD), so that an
// identifier reads the same whichever decoder met it.
func Unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	var s string
	// raw is a validated string body; quoting it again cannot fail.
	_ = json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s)
	return s
}

// NameIs compares a raw member name with want, unescaping only when the
// name holds an escape.
func NameIs(raw []byte, want string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == want
	}
	return Unquote(raw) == want
}

// Elements walks a whole top-level array, calling fn with each element's
// index and bytes.
func Elements(b []byte, fn func(i int, elem []byte) error) error {
	s := New(b)
	i := 0
	err := s.array(func() error {
		v, err := s.Value()
		if err != nil {
			return err
		}
		err = fn(i, v)
		i++
		return err
	})
	if err != nil {
		return err
	}
	return s.End()
}

// Clip shortens a JSON value for an error message, and sanitizes it: the
// bytes are the service's.
func Clip(v []byte) string {
	const limit = 40
	if len(v) > limit {
		return sanitize.String(string(v[:limit])) + "…"
	}
	return sanitize.String(string(v))
}

// CheckStart gives a clear error for the bodies that are not JSON at
// all, such as an empty body or an HTML error page served with status 200.
func CheckStart(body []byte) error {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return errors.New("empty response body, want JSON")
	case trimmed[0] != '{' && trimmed[0] != '[':
		return fmt.Errorf("response is not JSON: it starts with %q", Clip(trimmed[:min(len(trimmed), 16)]))
	}
	return nil
}
