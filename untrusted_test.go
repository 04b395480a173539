package gamedata

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Untrusted keeps the text as sent and shows it only sanitized
// (internal/sanitize tests what the sanitizer removes).
func TestUntrustedString(t *testing.T) {
	t.Parallel()
	in := "\x1b[31mRed\x1b[0m Alert \u202eevil"
	u := NewUntrusted(in)
	assert.Equal(t, "Red Alert evil", u.String())
	assert.Equal(t, in, u.Unsanitized(), "the text as sent")
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

// Inert is true exactly when String shows the text as sent
// (internal/sanitize's tests and fuzzing hold the classes themselves).
func TestUntrustedInert(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", true},
		{"plain ASCII", "neon-miner", true},
		{"letters and emoji", "Space Miner — 宇宙 🚀", true},
		{"U+FFFD as sent", "\ufffd", true},
		{"CSI escape", "\x1b[31mRed", false},
		{"8-bit CSI", "\u009b", false},
		{"NUL", "\x00", false},
		{"DEL", "\x7f", false},
		{"tab", "a\tb", false},
		{"line separator", "\u2028", false},
		{"bidi override", "\u202eevil", false},
		{"zero-width space", "a\u200bb", false},
		{"tag character", "\U000e0041", false},
		{"byte that is not UTF-8", "a\xffb", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			u := NewUntrusted(tt.in)
			assert.Equal(t, tt.want, u.Inert(), "%q", tt.in)
			assert.Equal(t, u.Inert(), u.String() == tt.in, "Inert agrees with String on %q", tt.in)
		})
	}
}
