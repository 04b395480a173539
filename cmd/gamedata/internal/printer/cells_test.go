package printer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpreadsheetSafe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"=1+1", "'=1+1"},
		{"+1", "'+1"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"-12.5", "-12.5"},
		{"-1e-3", "-1e-3"},
		{"-x", "'-x"},
		{"-Inf", "'-Inf"},
		{"-NaN", "'-NaN"},
		{"-0x10", "'-0x10"},
		{"", ""},
	} {
		assert.Equal(t, tt.want, spreadsheetSafe(tt.in), "%q", tt.in)
	}
}
