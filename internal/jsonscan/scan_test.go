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

// Canonical says exactly whether json.Marshal would write a value's bytes
// otherwise, so a caller can keep the bytes as they will come back.
func TestCanonicalIsWhatMarshalKeeps(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{}`, `{"a":1}`, `{"a":[1,2,{"b":null}]}`, `"a b\tc"`, `"Tom \u0026 Jerry"`, `"—€✓"`, `"\u2028"`,
		`{"a": 1}`, `{ "a":1}`, "[1,\n2]", `{"a":1 }`, `"Tom & Jerry"`, `"<b>"`, `"a>b"`,
		"\"line\u2028sep\"", "\"para\u2029sep\"", `["x",` + "\t" + `"y"]`, `{"t":"<","u":"ok"}`,
	} {
		s := New([]byte(doc))
		_, err := s.Value()
		require.NoError(t, err, doc)
		out, err := json.Marshal(json.RawMessage(doc))
		require.NoError(t, err)
		assert.Equal(t, string(out) == doc, s.Canonical(), "%q marshals as %q", doc, out)
	}
}
