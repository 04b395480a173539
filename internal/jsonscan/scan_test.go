package jsonscan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// whole reads b as one document, as the decoders do: a value, then
// nothing but white space.
func whole(b []byte) error {
	s := New(b)
	if _, err := s.Value(); err != nil {
		return err
	}
	return s.End()
}

func TestValueValidatesLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{}`, `[]`, ` {"a":[1,-0.5e+3,true,false,null,"x\u00e9\n"]} `, `"\ud800"`, `0`, `-0`, `1E9`,
		``, ` `, `{`, `[1,]`, `{"a" 1}`, `{"a":1,}`, `{1:2}`, `01`, `1.`, `.5`, `1e`, `-`, `+1`,
		`"a` + "\x01" + `"`, `"\x"`, `"\u12g4"`, `tru`, `nul`, `[1] [2]`, `"unterminated`, `{"a":1}}`,
	} {
		err := whole([]byte(doc))
		assert.Equal(t, json.Valid([]byte(doc)), err == nil, "%q: %v", doc, err)
	}
}

func TestDepthIsBounded(t *testing.T) {
	t.Parallel()
	deep := func(n int) []byte { return []byte(strings.Repeat("[", n) + strings.Repeat("]", n)) }
	require.NoError(t, whole(deep(maxDepth)))
	assert.ErrorContains(t, whole(deep(maxDepth+1)), "exceeded max depth")
	// Open and Next keep the count: levels closed are given back.
	many := "[" + strings.Repeat("[[]],", maxDepth) + "[]]"
	require.NoError(t, whole([]byte(many)), "siblings do not add up")
}

func TestObjectHandsOverRawNames(t *testing.T) {
	t.Parallel()
	s := New([]byte(`{"a":1,"b\u0063":{"c":[2]},"d":null}`))
	var names []string
	var values []string
	err := s.Object(func(name []byte) error {
		names = append(names, string(name))
		v, err := s.Value()
		values = append(values, string(v))
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", `b\u0063`, "d"}, names)
	assert.Equal(t, []string{"1", `{"c":[2]}`, "null"}, values)
	assert.True(t, NameIs([]byte(`b\u0063`), "bc"))
	assert.False(t, NameIs([]byte(`b\u0063`), `b\u0063`))
}

func TestUnquoteReadsAsEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`plain`, `esc\"aped\n`, `\u00e9\ud83d\ude80`, `lone \ud800`, "bad \xff utf-8", ``} {
		var want string
		require.NoError(t, json.Unmarshal([]byte(`"`+raw+`"`), &want), raw)
		assert.Equal(t, want, Unquote([]byte(raw)), raw)
	}
}

func TestElements(t *testing.T) {
	t.Parallel()
	var got []string
	err := Elements([]byte(` [1, "two", [3], {"four":4}] `), func(i int, elem []byte) error {
		assert.Equal(t, len(got), i)
		got = append(got, string(elem))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"1", `"two"`, "[3]", `{"four":4}`}, got)
	assert.Error(t, Elements([]byte(`[1] x`), func(int, []byte) error { return nil }))
	stop := errors.New("stop")
	assert.ErrorIs(t, Elements([]byte(`[1,2]`), func(int, []byte) error { return stop }), stop)
}

func TestEightDigits(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"12345678", 12345678, true},
		{"00000000", 0, true},
		{"99999999", 99999999, true},
		{"17632008", 17632008, true},
		{"1234567a", 0, false},
		{"/2345678", 0, false}, // the byte before '0'
		{"1234567:", 0, false}, // the byte after '9'
		{"1234 678", 0, false},
		{"-1234567", 0, false},
	} {
		got, ok := eightDigits([]byte(tt.in))
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
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
