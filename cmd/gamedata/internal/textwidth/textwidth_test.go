package textwidth

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDisplayWidth(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s            string
		width        int
		cut          string // to 5 cells
		padded, text string
	}{
		{s: "short", width: 5, cut: "short"},
		{s: "ünïcode", width: 7, cut: "ünïc…"},
		{s: "Сервер 🎮 94", width: 12, cut: "Серв…"},
		{s: "🎮🎮🎮", width: 6, cut: "🎮🎮…"},
		{s: "e\u0301e\u0301e\u0301e\u0301e\u0301e\u0301", width: 6, cut: "e\u0301e\u0301e\u0301e\u0301…"},
	} {
		assert.Equal(t, tt.width, Width(tt.s), "%q", tt.s)
		got := Truncate(tt.s, 5)
		assert.Equal(t, tt.cut, got, "%q", tt.s)
		assert.LessOrEqual(t, Width(got), 5)
		assert.Equal(t, 14, Width(Pad(tt.s, 14)), "%q padded", tt.s)
	}
}
