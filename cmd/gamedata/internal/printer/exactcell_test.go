package printer

import (
	"testing"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExactCell(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"neon-miner", "neon-miner"},
		{"with space", "with space"},
		{"ünïcode 日本", "ünïcode 日本"},
		{"a/b", "a/b"},
		{"", ""},
		{"=cmd", "'=cmd"},
		{"+plus", "'+plus"},
		{"@at", "'@at"},
		{"-minus", "'-minus"},
		{"-5", "-5"},
		{"-1.5e3", "-1.5e3"},
		{"-Inf", "'-Inf"},
		{"-0x1p3", "'-0x1p3"},
		{"'quote", "''quote"},
		{"it's", "it's"},
		{"a\tb", `a\u0009b`},
		{"\tlead", `\u0009lead`},
		{"a\u200bb", `a\u200Bb`},
		{`back\slash`, `back\\slash`},
		{`\u0041`, `\\u0041`},
		{"\x1b]0;t\x07\x1b[2J", `\u001B]0;t\u0007\u001B[2J`},
		{"a\x9bb\xff", `a\x9Bb\xFF`},
		{"\u009b", `\u009B`},
		{"tag\U000E0041", `tag\U000E0041`},
		{"\u202eevil", `\u202Eevil`},
		{"line\u2028sep", `line\u2028sep`},
	} {
		got := ExactCell(tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
		back, err := ReadExactCell(got)
		require.NoError(t, err, "%q", got)
		assert.Equal(t, tt.in, back, "%q reads back", got)
	}
}

func TestReadExactCellRefusesWhatItDoesNotWrite(t *testing.T) {
	t.Parallel()
	for _, c := range []string{`a\`, `\q`, `\u12`, `\xZZ`, `\U0001F60`} {
		_, err := ReadExactCell(c)
		assert.Error(t, err, "%q", c)
	}
}

// FuzzExactCell: every string reads back exactly; what is written is safe
// to show (the sanitizer leaves it as it is) and never read as a formula
// by a spreadsheet; two strings are never written alike (which reading
// back exactly implies).
func FuzzExactCell(f *testing.F) {
	for _, s := range []string{"", "neon-miner", "=x", "'", "''", "-", "-5", `\`, "a\tb", "\x9b", "\u200b", "\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := ExactCell(s)
		back, err := ReadExactCell(c)
		if err != nil || back != s {
			t.Fatalf("ExactCell(%q) = %q reads back as %q, %v", s, c, back, err)
		}
		if !utf8.ValidString(c) || gamedata.NewUntrusted(c).String() != c {
			t.Fatalf("ExactCell(%q) = %q is not safe to show", s, c)
		}
		if c != "" && c[0] != '\'' && readAsFormula(c) {
			t.Fatalf("ExactCell(%q) = %q reads as a formula", s, c)
		}
	})
}
