package jsonscan

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzNumber checks the number readers against strconv: a number they
// read is the float64 strconv.ParseFloat gives, bit for bit; a fast
// reader that declines consumes nothing; whole milliseconds are whole.
func FuzzNumber(f *testing.F) {
	for _, n := range []string{"0", "-0", "1763200800000", "1520.25", "0.1", "1e3", "-1.5E-7", "123456789012345", "1234567890123456", "9007199254740993", "1e400", "01", "1.", "-"} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n string) {
		n = strings.Trim(n, " \t\r\n") // white space is the document's, not the number's
		b := []byte(n + ",")
		if !json.Valid([]byte(n)) || !IsNumber([]byte(n)) {
			s := New(b)
			if _, err := s.Float(); err == nil && string(s.Rest()) == "," {
				t.Fatalf("Float(%q) read it whole as a number", n)
			}
			return
		}
		want, perr := strconv.ParseFloat(n, 64)
		finite := perr == nil && !math.IsInf(want, 0)
		fuzzExactReaders(t, n, want, finite)
		fuzzFastReaders(t, n, want)
	})
}

// fuzzExactReaders checks Float and ParseMillis on the number n, which
// strconv reads as want (finite when it is a float64 at all).
func fuzzExactReaders(t *testing.T, n string, want float64, finite bool) {
	s := New([]byte(n + ","))
	got, err := s.Float()
	switch {
	case finite && (err != nil || math.Float64bits(got) != math.Float64bits(want)):
		t.Fatalf("Float(%q) = %v, %v; strconv reads %v", n, got, err, want)
	case !finite && !errors.As(err, new(ValueError)):
		t.Fatalf("Float(%q) = %v, %v; want a ValueError", n, got, err)
	}
	ms, err := ParseMillis([]byte(n))
	if err == nil && float64(ms) != want {
		t.Fatalf("ParseMillis(%q) = %d; strconv reads %v", n, ms, want)
	}
	if err == nil != (finite && want == math.Trunc(want) && math.Abs(want) <= 1<<53) {
		t.Fatalf("ParseMillis(%q) = %d, %v; strconv reads %v", n, ms, err, want)
	}
}

// fuzzFastReaders checks TryNumber and TryInt on the number n, which
// strconv reads as want: what they take is want, and a declined number
// is left whole. They read a word at a time from 16 bytes on, one byte at
// a time before: n is read both ways.
func fuzzFastReaders(t *testing.T, n string, want float64) {
	for _, b := range [][]byte{[]byte(n + ","), []byte(n + ",               ")} {
		s := New(b)
		if f, ok := s.TryNumber(); ok && math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("TryNumber(%q) = %v; strconv reads %v", b, f, want)
		} else if !ok && len(s.Rest()) != len(b) {
			t.Fatalf("TryNumber(%q) declined but consumed %d bytes", b, len(b)-len(s.Rest()))
		} else if ok && s.Rest()[0] != ',' {
			t.Fatalf("TryNumber(%q) left %q", b, s.Rest())
		}
		s = New(b)
		if i, ok := s.TryInt(); ok && (float64(i) != want || s.Rest()[0] != ',') {
			t.Fatalf("TryInt(%q) = %d, left %q; strconv reads %v", b, i, s.Rest(), want)
		}
	}
}

func TestLeadingDigits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want uint64
		n    int
	}{
		{"12345678", 12345678, 8},
		{"00000000", 0, 8},
		{"99999999", 99999999, 8},
		{"1763200800000", 1763200800000, 13},
		{"1234567a", 1234567, 7},
		{"/2345678", 0, 0},       // the byte before '0'
		{"1234567:", 1234567, 7}, // the byte after '9'
		{"1234 678", 1234, 4},
		{"-1234567", 0, 0},
		{"123456789012345", 123456789012345, 15},
		{"1234567890123456", 0, 0},
		{"12345678901234567890", 0, 0},
		{"1\xff9", 1, 1}, // a carry out of a byte that is not a digit
	} {
		// Short of 16 bytes the digits are read one at a time, from 16 on
		// a word at a time: both ways read the same.
		for _, pad := range []string{",", ",               "} {
			got, n, _ := leadingDigits([]byte(tt.in + pad))
			assert.Equal(t, tt.n, n, "%q", tt.in+pad)
			assert.Equal(t, tt.want, got, "%q", tt.in+pad)
		}
	}
}

// The fast readers take the usual forms and leave the others, untouched,
// to the exact ones.
func TestTryReadersLeaveWhatTheyDoNotTake(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in        string
		int, num  bool
		flag      bool
		wantFloat float64
	}{
		{"1763200800000", true, true, false, 1763200800000},
		{"-5", true, true, false, -5},
		{"0", true, true, true, 0},
		{"1", true, true, true, 1},
		{"1520.25", false, true, false, 1520.25},
		{"1.0", false, true, false, 1},
		{"1e3", false, false, false, 1000},
		{"01", false, false, false, 0},
		{"1234567890123456", false, false, false, 1234567890123456},
		{"0.1234567890123456", false, false, false, 0.1234567890123456},
	} {
		s := New([]byte(tt.in + ","))
		_, ok := s.TryInt()
		assert.Equal(t, tt.int, ok, "TryInt(%s)", tt.in)
		s = New([]byte(tt.in + ","))
		f, ok := s.TryNumber()
		assert.Equal(t, tt.num, ok, "TryNumber(%s)", tt.in)
		if ok {
			assert.Equal(t, tt.wantFloat, f, tt.in)
			assert.Equal(t, ",", string(s.Rest()), "TryNumber(%s) consumes the number", tt.in)
		} else {
			assert.Equal(t, tt.in+",", string(s.Rest()), "TryNumber(%s) consumes nothing", tt.in)
		}
		s = New([]byte(tt.in + ","))
		_, ok = s.TryFlag()
		assert.Equal(t, tt.flag, ok, "TryFlag(%s)", tt.in)
		if tt.in != "01" {
			s = New([]byte(tt.in + ","))
			f, err := s.Float()
			require.NoError(t, err, tt.in)
			assert.Equal(t, tt.wantFloat, f, tt.in)
		}
	}
}

// A flag may end the input: Flag, which is TryFlag with an error for
// what it does not take, reads it.
func TestFlagAtTheEndOfInput(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{"0": false, "1": true, " 1": true} {
		s := New([]byte(in))
		s.WS()
		got, err := s.Flag()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
		assert.Empty(t, s.Rest(), "Flag(%q) consumes the flag", in)
	}
}

func TestExactReadersSayWhatIsWrong(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		read func(*Scanner) error
		says string
	}{
		{`"x"`, func(s *Scanner) error { _, err := s.Float(); return err }, `got "x", want a number`},
		{`1e999`, func(s *Scanner) error { _, err := s.Float(); return err }, "want a finite number"},
		{`1.5`, func(s *Scanner) error { _, err := s.Millis(); return err }, "want whole Unix milliseconds"},
		{`1e300`, func(s *Scanner) error { _, err := s.Millis(); return err }, "want whole Unix milliseconds"},
		{`true`, func(s *Scanner) error { _, err := s.Millis(); return err }, "want a number"},
		{`1.0`, func(s *Scanner) error { _, err := s.Flag(); return err }, "want 0 or 1"},
		{`2`, func(s *Scanner) error { _, err := s.Flag(); return err }, "want 0 or 1"},
	} {
		s := New([]byte(tt.in))
		err := tt.read(&s)
		var ve ValueError
		assert.ErrorAs(t, err, &ve, tt.in)
		assert.ErrorContains(t, err, tt.says, tt.in)
	}
	s := New([]byte(`1.7e12`))
	ms, err := s.Millis()
	require.NoError(t, err)
	assert.Equal(t, int64(1.7e12), ms, "whole milliseconds written with an exponent")
}
