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
		{"2026-11-20T10:00:00,5Z", base.Add(500 * time.Millisecond)},
		{"2026-11-20T10:00:00.123Z", base.Add(123 * time.Millisecond)},
		{"2026-11-20T10:00:00.123456Z", base.Add(123456 * time.Microsecond)},
		{"2026-11-20T10:00:00.123456789Z", base.Add(123456789)},
		{"2026-11-20T10:00:00.1234567891Z", base.Add(123456789)},
		{"2026-11-20T10:00:00+00:00", base},
		{"2026-11-20T12:00:00+02:00", base},
		{"2026-11-20T04:30:00-05:30", base},
		{"2026-11-20T12:00:00+0200", base},
		{"2026-11-20T12:00:00+02", base},
		{"2026-11-20T12:00:00.250+02:00", base.Add(250 * time.Millisecond)},
		// Reduced precision, to the minute.
		{"2026-11-20T10:00Z", base},
		{"2026-11-20T11:00+01:00", base},
		// The basic format.
		{"20261120T100000Z", base},
		{"20261120T1000Z", base},
		{"20261120T120000+0200", base},
		{"20261120T100000.5Z", base.Add(500 * time.Millisecond)},
		// A date alone is midnight UTC.
		{"2026-11-20", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)},
		{"20261120", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)},
		{"2024-02-29", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		got, err := parseISO8601(tt.in)
		require.NoError(t, err, tt.in)
		assert.True(t, tt.want.Equal(got), "%s: got %s, want %s", tt.in, got, tt.want)
	}
}

// A refusal says what was wrong with the value.
func TestParseISO8601Refuses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, says string }{
		{"", "want 4 digits of year"},
		{"2026-11-20T10:00:00", "no zone"},     // the instant is unknown
		{"2026-11-20T10:00:00.123", "no zone"}, // no zone either
		{"2026-11-20T10:00", "no zone"},
		{"2026-11-20X10:00:00Z", "want T between the date and the time"},
		{"2026-13-20T10:00:00Z", "month 13 out of range"},
		{"2026-02-29", "day 29 out of range 01 to 28"},
		{"2026-11-20T24:00:00Z", "hour 24 out of range"},
		{"2026-11-20T10:60Z", "minute 60 out of range"},
		{"2026-11-20T10:00:60Z", "second 60 out of range"},
		{"2026-11-20T10Z", "want 2 digits of minute"},
		{"2026-11-20T10:00:00.Z", "no digits after the decimal point"},
		{"2026-11-20T10:00:00Zjunk", `unexpected "junk" after the zone`},
		{"2026-11-20T10:00:00+2", "want 2 digits of zone hour"},
		{"2026-11-20T10:00:00 UTC", "want a zone"},
		{"1732096800000", "day 68 out of range"},
		{"not a timestamp at all", "want 4 digits of year"},
	} {
		_, err := parseISO8601(tt.in)
		assert.ErrorContains(t, err, tt.says, "%q", tt.in)
		assert.ErrorContains(t, err, `timestamp "`+tt.in+`"`, "the value is named")
	}
}
