package jsonscan

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzValue checks the scanner against encoding/json: it accepts exactly
// the documents encoding/json accepts, hands back each member's value and
// name as encoding/json reads them, and never panics.
func FuzzValue(f *testing.F) {
	for _, doc := range []string{
		`{"a":[1,-0.5e+3,true,false,null,"x\u00e9\n"]}`, `[[1763200800000,1.5,0,null,null,1,0]]`,
		`{"b\u0063":1,"b\u0063":2}`, `"\ud800"`, `{`, `[1,]`, `01`, `"\x"`, "\"\xff\"",
		strings.Repeat("[", 20_000),
	} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := whole(b)
		if valid := json.Valid(b); valid != (err == nil) {
			t.Fatalf("whole(%q) = %v, but json.Valid says %t", b, err, valid)
		}
		if err != nil {
			return
		}
		var want map[string]json.RawMessage
		if json.Unmarshal(b, &want) != nil || want == nil {
			return
		}
		got := map[string]string{}
		s := New(b)
		if err := s.Object(func(name []byte) error {
			v, err := s.Value()
			got[Unquote(name)] = string(v)
			return err
		}); err != nil {
			t.Fatalf("Object(%q): %v", b, err)
		}
		if len(got) != len(want) {
			t.Fatalf("Object(%q) read %d names, encoding/json %d", b, len(got), len(want))
		}
		for name, v := range want {
			if got[name] != string(v) {
				t.Fatalf("Object(%q): member %q is %q, encoding/json reads %q", b, name, got[name], v)
			}
		}
	})
}

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
		s := New(b)
		got, err := s.Float()
		switch {
		case finite && (err != nil || math.Float64bits(got) != math.Float64bits(want)):
			t.Fatalf("Float(%q) = %v, %v; strconv reads %v", n, got, err, want)
		case !finite && !errors.As(err, new(ValueError)):
			t.Fatalf("Float(%q) = %v, %v; want a ValueError", n, got, err)
		}
		s = New(b)
		if f, ok := s.TryNumber(); ok && math.Float64bits(f) != math.Float64bits(want) {
			t.Fatalf("TryNumber(%q) = %v; strconv reads %v", n, f, want)
		} else if !ok && len(s.Rest()) != len(b) {
			t.Fatalf("TryNumber(%q) declined but consumed %d bytes", n, len(b)-len(s.Rest()))
		}
		s = New(b)
		if i, ok := s.TryInt(); ok && float64(i) != want {
			t.Fatalf("TryInt(%q) = %d; strconv reads %v", n, i, want)
		}
		ms, err := ParseMillis([]byte(n))
		if err == nil && float64(ms) != want {
			t.Fatalf("ParseMillis(%q) = %d; strconv reads %v", n, ms, want)
		}
		if err == nil != (finite && want == math.Trunc(want) && math.Abs(want) <= 1<<53) {
			t.Fatalf("ParseMillis(%q) = %d, %v; strconv reads %v", n, ms, err, want)
		}
	})
}
