package jsonscan

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// ValueError is a well-formed value of the wrong kind where a number, a
// flag or whole milliseconds were wanted: a decoder can say which element
// was at fault.
type ValueError struct{ msg string }

// Error says what was wanted and what came.
func (e ValueError) Error() string { return e.msg }

// wrongValue consumes the value at s.i and describes it.
func (s *Scanner) wrongValue(want string) error {
	v, err := s.Value()
	if err != nil {
		return err
	}
	return ValueError{fmt.Sprintf("got %s, want %s", Clip(v), want)}
}

// number consumes a number by JSON's grammar and returns its bytes.
func (s *Scanner) number() ([]byte, error) {
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
func (s *Scanner) exponent() error {
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

func (s *Scanner) digits() int {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i - start
}

// numberAhead reports whether a number starts at s.i.
func (s *Scanner) numberAhead() bool {
	return s.i < len(s.b) && (s.b[s.i] == '-' || (s.b[s.i] >= '0' && s.b[s.i] <= '9'))
}

// IsNumber reports whether v, a valid JSON value, is a number.
func IsNumber(v []byte) bool {
	return len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// TryInt reads an integer of at most 15 digits without fraction or
// exponent, the usual form of a time, consuming it; it consumes nothing
// and reports false for anything else, which Millis then reads.
func (s *Scanner) TryInt() (int64, bool) {
	v, n := integer(s.b[s.i:])
	s.i += n
	return v, n > 0
}

// integer reads TryInt's integers at the start of b, and returns one and
// its length in bytes; the length is 0 for anything else.
func integer(b []byte) (int64, int) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	v, n := Uint(b[i:])
	if n == 0 || (i+n < len(b) && isNumberByte(b[i+n])) {
		return 0, 0
	}
	if i == 1 {
		return -int64(v), 1 + n
	}
	return int64(v), n
}

// TryNumber reads a number as Number does, consuming it; it consumes
// nothing and reports false for anything else, which Float then reads.
func (s *Scanner) TryNumber() (float64, bool) {
	f, n := Number(s.b[s.i:])
	s.i += n
	return f, n > 0
}

// Number reads, at the start of b, a number with an optional fraction and
// no exponent, at most 15 significant digits in all (see parseFloat for
// why that is exact), and returns it and its length in bytes; the length
// is 0 for anything else. It needs no Scanner: a decoder of a fixed shape
// walks the bytes itself and calls it where it expects a number.
func Number(b []byte) (float64, int) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	mant, n := Uint(b[i:])
	if n == 0 {
		return 0, 0
	}
	i += n
	frac := 0
	if i < len(b) && b[i] == '.' {
		f, m, _ := leadingDigits(b[i+1:]) // none when more than 15
		if m == 0 || n+m > 15 {
			return 0, 0
		}
		mant, frac, i = mant*pow10u[m]+f, m, i+1+m
	}
	if i < len(b) && isNumberByte(b[i]) {
		return 0, 0
	}
	f := float64(mant) / pow10[frac]
	if b[0] == '-' {
		f = -f
	}
	return f, i
}

// TryFlag reads 0 or 1 written as such (1.0 or 1e0 is not a flag), and
// consumes nothing and reports false for anything else, which Flag then
// describes.
func (s *Scanner) TryFlag() (v, ok bool) {
	if s.i >= len(s.b) || (s.b[s.i] != '0' && s.b[s.i] != '1') || (s.i+1 < len(s.b) && isNumberByte(s.b[s.i+1])) {
		return false, false
	}
	v = s.b[s.i] == '1'
	s.i++
	return v, true
}

// Flag reads a flag as TryFlag does; anything else is a ValueError.
func (s *Scanner) Flag() (bool, error) {
	if v, ok := s.TryFlag(); ok {
		return v, nil
	}
	return false, s.wrongValue("0 or 1")
}

// Float reads a number; anything else is a ValueError, and so is a number
// too large for a float64.
func (s *Scanner) Float() (float64, error) {
	if f, ok := s.TryNumber(); ok {
		return f, nil
	}
	if !s.numberAhead() {
		return 0, s.wrongValue("a number")
	}
	b, err := s.number()
	if err != nil {
		return 0, err
	}
	return parseFloat(b)
}

// Millis reads whole Unix milliseconds, written with or without a
// fraction or exponent; anything else is a ValueError.
func (s *Scanner) Millis() (int64, error) {
	if ms, ok := s.TryInt(); ok {
		return ms, nil
	}
	if !s.numberAhead() {
		return 0, s.wrongValue("a number")
	}
	b, err := s.number()
	if err != nil {
		return 0, err
	}
	return ParseMillis(b)
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseFloat parses a JSON number. Numbers of at most 15 significant
// digits with no exponent, which is nearly all of them here, take a fast
// path that is exact: both the digits and the power of ten are exactly
// representable, so one division rounds correctly. Others go through
// strconv.
func parseFloat(b []byte) (float64, error) {
	i, neg := 0, false
	if b[0] == '-' {
		i, neg = 1, true
	}
	var mant uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			if digits++; frac >= 0 {
				frac++
			}
		case c == '.':
			frac = 0
		default:
			digits = 99 // an exponent: the slow path
		}
	}
	if digits > 15 {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.IsInf(f, 0) {
			return 0, ValueError{fmt.Sprintf("got %s, want a finite number", Clip(b))}
		}
		return f, nil
	}
	f := float64(mant)
	if frac > 0 {
		f /= pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, nil
}

// ParseMillis parses a JSON number b as whole Unix milliseconds, written
// with or without a fraction or exponent; a fraction, or a number past
// 2^53, is a ValueError.
func ParseMillis(b []byte) (int64, error) {
	if len(b) <= 15 && !bytes.ContainsAny(b, ".eE") {
		// At most 15 characters: below 2^53 whatever they are, so the
		// bound below holds whichever way the number is written.
		n, neg, i := int64(0), b[0] == '-', 0
		if neg {
			i = 1
		}
		for ; i < len(b); i++ {
			n = n*10 + int64(b[i]-'0')
		}
		if neg {
			n = -n
		}
		return n, nil
	}
	f, err := parseFloat(b)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, ValueError{fmt.Sprintf("got %s, want whole Unix milliseconds", Clip(b))}
	}
	return int64(f), nil
}
