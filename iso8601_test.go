package gamedata

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseISO8601(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2026-11-20T10:00:00Z", base},
		{"2026-11-20t10:00:00z", base},
		{"2026-11-20 10:00:00Z", base},
		{"2026-11-20T10:00:00.5Z", base.Add(500 * time.Millisecond)},
		{"2026-11-20T10:00:00.123Z", base.Add(123 * time.Millisecond)},
		{"2026-11-20T10:00:00.123456Z", base.Add(123456 * time.Microsecond)},
		{"2026-11-20T10:00:00.123456789Z", base.Add(123456789)},
		{"2026-11-20T10:00:00+00:00", base},
		{"2026-11-20T12:00:00+02:00", base},
		{"2026-11-20T04:30:00-05:30", base},
		{"2026-11-20T12:00:00+0200", base},
		{"2026-11-20T12:00:00+02", base},
		{"2026-11-20T12:00:00.250+02:00", base.Add(250 * time.Millisecond)},
	}
	for _, tt := range tests {
		got, err := parseISO8601(tt.in)
		require.NoError(t, err, tt.in)
		assert.True(t, tt.want.Equal(got), "%s: got %s, want %s", tt.in, got, tt.want)
	}
}

func TestParseISO8601Refuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"",
		"2026-11-20",
		"2026-11-20T10:00:00",     // no zone: the instant is unknown
		"2026-11-20T10:00:00.123", // no zone either
		"2026-11-20X10:00:00Z",    // no T
		"2026-13-20T10:00:00Z",    // month 13
		"1732096800000",
		"not a timestamp at all",
	} {
		_, err := parseISO8601(in)
		assert.Error(t, err, "%q", in)
	}
}
