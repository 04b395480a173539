package iso8601

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
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
		got, err := Parse(tt.in)
		require.NoError(t, err, tt.in)
		assert.True(t, tt.want.Equal(got), "%s: got %s, want %s", tt.in, got, tt.want)
	}
}

// A refusal says what was wrong with the value.
func TestParseRefuses(t *testing.T) {
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
		_, err := Parse(tt.in)
		assert.ErrorContains(t, err, tt.says, "%q", tt.in)
		assert.ErrorContains(t, err, `timestamp "`+tt.in+`"`, "the value is named")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"2026-11-20T10:00:00Z",
		"2026-11-20t10:00:00z",
		"2026-11-20 10:00:00.123456789+05:45",
		"2026-11-20T12:00:00+0200",
		"2026-11-20T12:00:00-02",
		"2026-11-20T10:00:00.1234567891234Z",
		"2026-11-20T10:00:00",
		"0000-01-01T00:00:00+14:00",
	} {
		f.Add(s, int64(1763632800), uint32(0), int16(0))
	}
	f.Add("", int64(-62135596800), uint32(999_999_999), int16(-14*60))
	f.Add("", int64(253402300799), uint32(1), int16(14*60))
	f.Add("", int64(math.MinInt64), uint32(math.MaxUint32), int16(math.MinInt16))

	// Derived times lie from 0001-01-02 to 9999-12-30 UTC, so that even at
	// an offset of 14 hours the year has four digits.
	lo := time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(9999, 12, 30, 0, 0, 0, 0, time.UTC).Unix()

	f.Fuzz(func(t *testing.T, s string, sec int64, nsec uint32, offMin int16) {
		if got, err := Parse(s); err == nil {
			formatted := got.Format(time.RFC3339Nano)
			again, err := Parse(formatted)
			if err != nil || !again.Equal(got) {
				t.Fatalf("Parse(%q) = %v; its RFC 3339 form %q parses to %v, %v", s, got, formatted, again, err)
			}
		}

		sec = lo + ((sec%(hi-lo))+(hi-lo))%(hi-lo)
		offset := int(offMin) % (14*60 + 1) * 60
		want := time.Unix(sec, int64(nsec%1e9)).In(time.FixedZone("", offset))
		formatted := want.Format(time.RFC3339Nano)
		forms := []string{formatted}
		// The other forms the parser's documentation names: t or a space
		// for T, z for Z, ±hhmm, and ±hh when the minutes are zero.
		forms = append(forms, formatted[:10]+"t"+formatted[11:], formatted[:10]+" "+formatted[11:])
		if zone := formatted[len(formatted)-6:]; strings.HasSuffix(formatted, "Z") {
			forms = append(forms, strings.TrimSuffix(formatted, "Z")+"z")
		} else {
			forms = append(forms, formatted[:len(formatted)-3]+zone[4:])
			if strings.HasSuffix(zone, ":00") {
				forms = append(forms, formatted[:len(formatted)-3])
			}
		}
		for _, form := range forms {
			got, err := Parse(form)
			if err != nil || !got.Equal(want) {
				t.Errorf("Parse(%q) = %v, %v; want %v", form, got, err, want)
			}
		}
	})
}

// isoLayouts are the forms of FuzzParse that time.Parse also reads.
var isoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"20060102T150405Z0700",
	"20060102T1504Z0700",
	"2006-01-02T15:04:05-07",
	"2006-01-02",
}

// FuzzParseLikeTimeParse checks the parser against time.Parse: whatever one of
// isoLayouts reads, Parse reads as the same instant, and it never
// panics on anything else.
func FuzzParseLikeTimeParse(f *testing.F) {
	for _, s := range []string{
		"2026-11-20T10:00:00Z", "2026-11-20T10:00Z", "20261120T100000Z", "20261120T1000+0100",
		"2026-11-20T10:00:00.123456789+05:30", "2026-11-20", "2026-11-20T10:00:00-07", "2024-02-29",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		for _, layout := range isoLayouts {
			want, werr := time.Parse(layout, s)
			if werr != nil {
				continue
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v; time.Parse(%q) reads %s", s, err, layout, want)
			}
			if !got.Equal(want) {
				t.Fatalf("Parse(%q) = %s; time.Parse(%q) = %s", s, got, layout, want)
			}
		}
	})
}

// FromJSON reads both forms the service sends, and nothing else.
func TestFromJSON(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, v := range []string{`"2026-11-20T10:00:00Z"`, `"2026-11-20T11:00:00+01:00"`, `1795168800000`} {
		got, err := FromJSON([]byte(v))
		require.NoError(t, err, v)
		assert.True(t, want.Equal(got), "%s: %s", v, got)
	}
	for _, v := range []string{`true`, `null`, `"soon"`, `[1]`, `1e400`} {
		_, err := FromJSON([]byte(v))
		assert.Error(t, err, v)
	}
}
