// Package iso8601 reads the ISO 8601 timestamps a service may send: RFC
// 3339's forms and the others ISO 8601 allows, but never a date and time
// without a zone, whose instant is unknown.
package iso8601

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// Parse reads the ISO 8601 timestamps a service may emit, such as an
// analytics entry's capturedAt:
//
//   - a date and a time of day, in the extended format
//     (2026-11-20T10:00:00Z) or the basic one (20261120T100000Z), with T, t
//     or a space between them;
//   - the time to the minute (10:00) or to the second, with 0 to 9
//     fractional digits after a point or a comma (digits past the ninth,
//     below a nanosecond, are dropped);
//   - a zone of Z or z, ±hh:mm, ±hhmm or ±hh;
//   - a date alone (2026-11-20), read as midnight UTC.
//
// A date and time without a zone is refused: its instant cannot be known
// without guessing.
func Parse(s string) (time.Time, error) {
	p := isoParser{s: s}
	t, err := p.parse()
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %w", s, err)
	}
	return t, nil
}

type isoParser struct {
	s string
	i int
}

func (p *isoParser) parse() (time.Time, error) {
	year, month, day, err := p.date()
	if err != nil {
		return time.Time{}, err
	}
	if p.i == len(p.s) {
		return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC), nil
	}
	if c := p.s[p.i]; c != 'T' && c != 't' && c != ' ' {
		return time.Time{}, fmt.Errorf("want T between the date and the time, got %q", c)
	}
	p.i++
	hour, minute, sec, nsec, err := p.clock()
	if err != nil {
		return time.Time{}, err
	}
	zone, err := p.zone()
	if err != nil {
		return time.Time{}, err
	}
	if p.i != len(p.s) {
		return time.Time{}, fmt.Errorf("unexpected %q after the zone", p.s[p.i:])
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, zone), nil
}

// date reads YYYY-MM-DD or YYYYMMDD and checks that the day exists.
func (p *isoParser) date() (year, month, day int, err error) {
	extended := len(p.s) > 4 && p.s[4] == '-'
	if year, err = p.number(4, "year"); err != nil {
		return 0, 0, 0, err
	}
	if month, err = p.field(extended, '-', "month", 1, 12); err != nil {
		return 0, 0, 0, err
	}
	last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if day, err = p.field(extended, '-', "day", 1, last); err != nil {
		return 0, 0, 0, err
	}
	return year, month, day, nil
}

// clock reads hh:mm, hh:mm:ss or hh:mm:ss.fffffffff, or the same without
// colons.
func (p *isoParser) clock() (hour, minute, sec, nsec int, err error) {
	if hour, err = p.field(false, 0, "hour", 0, 23); err != nil {
		return
	}
	extended := p.i < len(p.s) && p.s[p.i] == ':'
	if minute, err = p.field(extended, ':', "minute", 0, 59); err != nil {
		return
	}
	if p.i == len(p.s) || (extended && p.s[p.i] != ':') || (!extended && !isDigit(p.s[p.i])) {
		return // reduced precision: no seconds
	}
	if sec, err = p.field(extended, ':', "second", 0, 59); err != nil {
		return
	}
	if p.i < len(p.s) && (p.s[p.i] == '.' || p.s[p.i] == ',') {
		nsec, err = p.fraction()
	}
	return
}

// fraction reads the digits of a fraction of a second after its point.
func (p *isoParser) fraction() (int, error) {
	p.i++
	start := p.i
	nsec, scale := 0, int(time.Second)
	for ; p.i < len(p.s) && isDigit(p.s[p.i]); p.i++ {
		if scale > 1 {
			scale /= 10
			nsec += int(p.s[p.i]-'0') * scale
		}
	}
	if p.i == start {
		return 0, errors.New("no digits after the decimal point of the seconds")
	}
	return nsec, nil
}

// zone reads Z, z, ±hh:mm, ±hhmm or ±hh.
func (p *isoParser) zone() (*time.Location, error) {
	if p.i == len(p.s) {
		return nil, errors.New("no zone (Z or ±hh:mm): its instant is unknown")
	}
	switch c := p.s[p.i]; c {
	case 'Z', 'z':
		p.i++
		return time.UTC, nil
	case '+', '-':
		p.i++
		hours, err := p.field(false, 0, "zone hour", 0, 23)
		if err != nil {
			return nil, err
		}
		minutes := 0
		if p.i < len(p.s) {
			if minutes, err = p.field(p.s[p.i] == ':', ':', "zone minute", 0, 59); err != nil {
				return nil, err
			}
		}
		offset := hours*3600 + minutes*60
		if c == '-' {
			offset = -offset
		}
		return time.FixedZone("", offset), nil
	default:
		return nil, fmt.Errorf("want a zone (Z or ±hh:mm), got %q", p.s[p.i:])
	}
}

// field reads a two-digit field between lo and hi, after sep when
// extended.
func (p *isoParser) field(extended bool, sep byte, name string, lo, hi int) (int, error) {
	if extended {
		if p.i >= len(p.s) || p.s[p.i] != sep {
			return 0, fmt.Errorf("want %q before the %s", sep, name)
		}
		p.i++
	}
	n, err := p.number(2, name)
	if err == nil && (n < lo || n > hi) {
		err = fmt.Errorf("%s %02d out of range %02d to %02d", name, n, lo, hi)
	}
	return n, err
}

// number reads exactly width digits.
func (p *isoParser) number(width int, name string) (int, error) {
	if len(p.s)-p.i < width || strings.IndexFunc(p.s[p.i:p.i+width], func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, fmt.Errorf("want %d digits of %s at offset %d", width, name, p.i)
	}
	n := 0
	for _, c := range p.s[p.i : p.i+width] {
		n = n*10 + int(c-'0')
	}
	p.i += width
	return n, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// FromJSON reads the two timestamp forms of the service, as JSON values:
// an ISO 8601 string with a zone, and a number of Unix milliseconds (the
// form of the activity history).
func FromJSON(v []byte) (time.Time, error) {
	switch {
	case len(v) > 0 && v[0] == '"':
		return Parse(jsonscan.Unquote(v[1 : len(v)-1]))
	case jsonscan.IsNumber(v):
		ms, err := jsonscan.ParseMillis(v)
		if err != nil {
			return time.Time{}, err
		}
		return time.UnixMilli(ms).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("got %s, want a timestamp", jsonscan.Clip(v))
}
