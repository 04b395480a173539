package gamedata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata/internal/iso8601"
)

// maxDepth bounds nesting as encoding/json does, so a nesting bomb fails
// fast instead of exhausting the stack.
const maxDepth = 10000

var errUnexpectedEnd = errors.New("unexpected end of JSON input")

// scanner reads JSON in one pass over the bytes, validating as strictly as
// encoding/json and allocating nothing, so responses can be decoded at
// memory speed and members kept as subslices of the body.
type scanner struct {
	b     []byte
	i     int
	depth int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", s.i, fmt.Sprintf(format, args...))
}

// invalid reports the byte at s.i, or the end of input.
func (s *scanner) invalid(context string) error {
	if s.i >= len(s.b) {
		return errUnexpectedEnd
	}
	return s.errorf("invalid character %q %s", s.b[s.i], context)
}

// expect consumes c after optional white space.
func (s *scanner) expect(c byte, context string) error {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != c {
		return s.invalid(context)
	}
	s.i++
	return nil
}

// skip consumes one value, validating it.
func (s *scanner) skip() error {
	s.ws()
	if s.i >= len(s.b) {
		return errUnexpectedEnd
	}
	switch c := s.b[s.i]; {
	case c == '{':
		return s.object(func([]byte) error { return s.skip() })
	case c == '[':
		return s.array(s.skip)
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

// value consumes one value and returns its bytes.
func (s *scanner) value() ([]byte, error) {
	s.ws()
	start := s.i
	if err := s.skip(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

func (s *scanner) literal(lit string) error {
	if len(s.b)-s.i < len(lit) {
		return errUnexpectedEnd
	}
	if string(s.b[s.i:s.i+len(lit)]) != lit {
		return s.errorf("invalid literal, want %s", lit)
	}
	s.i += len(lit)
	return nil
}

// object consumes an object, calling member with each member's raw name
// (without quotes, escapes left as they are); member must consume the
// value.
func (s *scanner) object(member func(name []byte) error) error {
	more, err := s.open('{', '}', "looking for beginning of object")
	if err != nil {
		return err
	}
	defer func() { s.depth-- }()
	for more {
		s.ws()
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
		if more, err = s.next('}', "after object key:value pair"); err != nil {
			return err
		}
	}
	return nil
}

// array consumes an array, calling element for each element; element must
// consume it.
func (s *scanner) array(element func() error) error {
	more, err := s.open('[', ']', "looking for beginning of array")
	if err != nil {
		return err
	}
	defer func() { s.depth-- }()
	for more {
		if err := element(); err != nil {
			return err
		}
		if more, err = s.next(']', "after array element"); err != nil {
			return err
		}
	}
	return nil
}

// open consumes the opening byte of an object or array, one level deeper
// (the caller gives the level back), and reports whether a first member
// or element follows, or the closing byte came at once.
func (s *scanner) open(opening, closing byte, context string) (bool, error) {
	if err := s.expect(opening, context); err != nil {
		return false, err
	}
	if s.depth++; s.depth > maxDepth {
		return false, errors.New("exceeded max depth")
	}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == closing {
		s.i++
		return false, nil
	}
	return true, nil
}

// next consumes the comma before a further member or element, or the
// closing byte, and reports which it was.
func (s *scanner) next(closing byte, context string) (bool, error) {
	s.ws()
	if s.i >= len(s.b) {
		return false, errUnexpectedEnd
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		return true, nil
	case closing:
		s.i++
		return false, nil
	}
	return false, s.invalid(context)
}

// str consumes a string at s.i and returns the bounds of its contents.
func (s *scanner) str() (start, end int, err error) {
	s.i++ // the opening quote
	start = s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			end = s.i
			s.i++
			return start, end, nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return 0, 0, errUnexpectedEnd
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if len(s.b)-s.i < 6 {
					return 0, 0, errUnexpectedEnd
				}
				for _, h := range s.b[s.i+2 : s.i+6] {
					if !isHex(h) {
						return 0, 0, s.errorf("invalid character %q in \\u hexadecimal character escape", h)
					}
				}
				s.i += 6
			default:
				return 0, 0, s.errorf("invalid escape %q in string literal", s.b[s.i+1])
			}
		case c < 0x20:
			return 0, 0, s.errorf("invalid character %q in string literal", c)
		default:
			s.i++
		}
	}
	return 0, 0, errUnexpectedEnd
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// number consumes a number by JSON's grammar and returns its bytes.
func (s *scanner) number() ([]byte, error) {
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i >= len(s.b):
		return nil, errUnexpectedEnd
	case s.b[s.i] == '0':
		s.i++
	case s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return nil, s.invalid("in numeric literal")
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return nil, s.invalid("after decimal point in numeric literal")
		}
	}
	if err := s.exponent(); err != nil {
		return nil, err
	}
	return s.b[start:s.i], nil
}

// exponent consumes the optional exponent of a number.
func (s *scanner) exponent() error {
	if s.i >= len(s.b) || (s.b[s.i] != 'e' && s.b[s.i] != 'E') {
		return nil
	}
	s.i++
	if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
		s.i++
	}
	if s.digits() == 0 {
		return s.invalid("in exponent of numeric literal")
	}
	return nil
}

func (s *scanner) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// end checks that nothing but white space follows the top-level value.
func (s *scanner) end() error {
	s.ws()
	if s.i < len(s.b) {
		return s.invalid("after top-level value")
	}
	return nil
}

// unquote returns the text of a validated JSON string from the bytes
// between its quotes, a member's name or a string value, as encoding/json
// reads it (escapes decoded, invalid UTF-8 replaced by U+FFFD), so that an
// identifier reads the same whichever decoder met it.
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	var s string
	// raw is a validated string body; quoting it again cannot fail.
	_ = json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s)
	return s
}

// eachElement walks a whole top-level array, calling fn with each
// element's index and bytes.
func eachElement(b []byte, fn func(i int, elem []byte) error) error {
	s := scanner{b: b}
	i := 0
	err := s.array(func() error {
		v, err := s.value()
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
	return s.end()
}

// parseTimestamp reads the two timestamp forms of the service: an ISO 8601
// string with a zone, and a number of Unix milliseconds (the form of the
// activity history).
func parseTimestamp(v []byte) (time.Time, error) {
	switch {
	case len(v) > 0 && v[0] == '"':
		return iso8601.Parse(unquote(v[1 : len(v)-1]))
	case isJSONNumber(v):
		ms, err := parseMillis(v)
		if err != nil {
			return time.Time{}, err
		}
		return time.UnixMilli(ms).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("got %s, want a timestamp", clip(v))
}
