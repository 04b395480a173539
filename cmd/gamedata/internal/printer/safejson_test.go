package printer

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileTitle holds, raw in the body: an invalid byte 0x9B (CSI on an
// 8-bit terminal), an invalid 0xFF, an encoded C1 control (U+009B), DEL, a
// right-to-left override and a zero-width space.
const hostileTitle = "a\x9b31m b\xff c\u009b2J d\u007f e\u202eg h\u200bi"

func TestSafeJSON(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"a":"plain ünïcode 日本"}`, `{"a":"plain ünïcode 日本"}`},
		{"{\"a\":\"\x9b\"}", `{"a":"\ufffd"}`},
		{"{\"a\":\"\xc2\x9b\"}", `{"a":"\u009b"}`},
		{"{\"\u202e\":\"\u2028\U000e0041\"}", `{"\u202e":"\u2028\udb40\udc41"}`},
		{`{"a" : [1, 2]}`, `{"a":[1,2]}`},
		{`{"a":"\u001b"}`, `{"a":"\u001b"}`},
		{`{"a":"Tom \u0026 Jerry \u003c3 \u003E"}`, `{"a":"Tom & Jerry <3 >"}`},
		{`{"a":"\\u0026 \\\u0026 \u0041"}`, `{"a":"\\u0026 \\& \u0041"}`},
	} {
		got, err := SafeJSON([]byte(tt.in))
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, string(got), "%q", tt.in)
		assert.True(t, utf8.Valid(got))
	}
}

// BenchmarkSafeJSON writes a record whose strings are plain ASCII, text
// beyond ASCII that is shown as sent, and hostile text that is escaped:
// the cost of each path of appendShown.
func BenchmarkSafeJSON(b *testing.B) {
	for _, bb := range []struct{ name, title string }{
		{"ascii", "Space Miner: the return"},
		{"unicode", "Space Miner — 宇宙 🚀 ünïcode"},
		{"hostile", hostileTitle},
	} {
		doc, err := json.Marshal(map[string]string{"kind": "game", "ident": "neon-miner", "title": bb.title, "notes": bb.title + " " + bb.title})
		require.NoError(b, err)
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := SafeJSON(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
