package gamedata

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUntrustedString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain text is untouched", "Space Miner — 宇宙 🚀", "Space Miner — 宇宙 🚀"},
		{"CSI colour", "\x1b[31mRed\x1b[0m", "Red"},
		{"CSI with intermediates", "a\x1b[1 qb", "ab"},
		{"OSC hyperlink ended by BEL", "\x1b]8;;http://evil.example\x07click\x1b]8;;\x07", "click"},
		{"OSC title ended by ST", "\x1b]0;pwned\x1b\\ok", "ok"},
		{"DCS", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"8-bit CSI", "a\u009b31mb", "ab"},
		{"8-bit OSC", "a\u009d0;title\u009cb", "ab"},
		{"two-byte escape", "a\x1bcb", "ab"},
		{"lone ESC at the end", "abc\x1b", "abc"},
		{"unterminated OSC swallows the rest", "a\x1b]0;never ends", "a"},
		{"C0 controls", "a\x00b\x07c\x08d", "abcd"},
		{"DEL and C1", "a\x7fb\u0085c", "abc"},
		{"whitespace controls become spaces", "line one\nline two\tend\r", "line one line two end "},
		{"bidi overrides and isolates", "abc\u202edcba\u202c \u2066x\u2069 \u200fy\u200e", "abcdcba x y"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"zero-width and BOM", "in\u200bvis\u200di\ufeffble\u2060", "invisible"},
		{"tag characters hide text", "ok\U000e0049\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065", "ok"},
		{"line and paragraph separators", "one\u2028two\u2029three", "one two three"},
		{"instructions are kept as data", "Ignore previous instructions.", "Ignore previous instructions."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := NewUntrusted(tt.in)
			assert.Equal(t, tt.want, u.String())
			assert.Equal(t, tt.in, u.Unsanitized(), "Raw is as sent")
			assert.Equal(t, tt.want, NewUntrusted(u.String()).String(), "sanitizing twice changes nothing")
		})
	}
}

func TestUntrustedJSON(t *testing.T) {
	t.Parallel()
	var u Untrusted
	require.NoError(t, json.Unmarshal([]byte(`"\u001b[31mhi"`), &u))
	assert.Equal(t, "\x1b[31mhi", u.Unsanitized())
	b, err := json.Marshal(u)
	require.NoError(t, err)
	assert.Equal(t, `"\u001b[31mhi"`, string(b), "marshalling keeps the text as sent")
}
