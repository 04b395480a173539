package gamedata

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// The identifiers read in decodeRecord's own pass must read as the member
// map reads them: the last value of a name sent twice, names and values
// unescaped, invalid UTF-8 replaced as encoding/json replaces it.
func TestDecodeRecordIdentifiers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, kind, ident string
	}{
		{`{"kind":"game","ident":"x"}`, "game", "x"},
		{` {"ident":"x"} `, "", "x"},
		{`{"kind":null,"ident":42}`, "", "42"},
		{`{"kind":"game","kind":"tool","ident":"x"}`, "tool", "x"},
		{`{"kind":true,"ident":"x","kind":"game"}`, "game", "x"},
		{`{"ki\u006ed":"g\u0061me","ident":"x"}`, "game", "x"},
		{"{\"kind\":\"game\",\"ident\":\"a\xffb\"}", "game", "a\uFFFDb"},
	}
	for _, tt := range tests {
		f, ids, err := decodeRecord([]byte(tt.body), "kind", "ident")
		require.NoError(t, err, tt.body)
		assert.Equal(t, []string{tt.kind, tt.ident}, ids[:2], tt.body)
		canonical, err := json.Marshal(json.RawMessage(tt.body))
		require.NoError(t, err)
		assert.Equal(t, string(canonical), string(f.JSON()), "kept as sent, in the form json.Marshal writes")
		for i, name := range []string{"kind", "ident"} {
			v, ok := f.Raw(name)
			if ok {
				id, err := identifier(name, v)
				require.NoError(t, err)
				assert.Equal(t, ids[i], id, "the member map agrees: %s", tt.body)
			}
		}
	}
}

func TestDecodeRecordErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, want string
	}{
		{`null`, "got null, want an object"},
		{`[{"kind":"game"}]`, "want an object"},
		{`"game"`, "want an object"},
		{`{"kind":["game"]}`, `member "kind"`},
		{`{"kind":"game","kind":1.5}`, `member "kind"`},
		{`{"kind":"game"`, "unexpected end"},
		{`{"kind":"game"} {}`, "after top-level value"},
		{`{"kind":"game","x":[1,]}`, "invalid character"},
		{`{"bomb":` + strings.Repeat("[", 100_000), "exceeded max depth"},
	}
	for _, tt := range tests {
		_, _, err := decodeRecord([]byte(tt.body), "kind", "ident")
		assert.ErrorContains(t, err, tt.want, jsonscan.Clip([]byte(tt.body)))
	}
}

// decodeRecord accepts exactly the objects encoding/json accepts, bar an
// identifier of the wrong type, and reads each identifier as the member map
// does.
func FuzzDecodeRecord(f *testing.F) {
	f.Add([]byte(`{"kind":"game","ident":"x","a":[1,2.5e3,{"b":null}],"c":"\u00e9\n"}`))
	f.Add([]byte(`{"kind":1,"ident":-0,"kind":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fields, ids, err := decodeRecord(b, "kind", "ident")
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil || m == nil {
			require.Error(t, err)
			return
		}
		if err != nil {
			require.ErrorContains(t, err, "want a string identifier")
			return
		}
		for i, name := range []string{"kind", "ident"} {
			want := ""
			if v, ok := m[name]; ok {
				want, _ = identifier(name, v)
			}
			require.Equal(t, want, ids[i], name)
		}
		require.Len(t, fields.Names(), len(m))
	})
}
