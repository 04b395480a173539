package gamedata

import (
	"fmt"
	"strings"
	"time"
)

// parseISO8601 parses the timestamp forms a real service emits: a date and
// a time separated by T, t or a space; seconds with or without a fraction
// (digits past the ninth, below a nanosecond, are dropped); and a zone of
// Z, z, ±hh:mm, ±hhmm or ±hh. A timestamp without a
// zone is refused: its instant cannot be known without guessing.
func parseISO8601(s string) (time.Time, error) {
	if len(s) < len("2006-01-02T15:04:05Z") {
		return time.Time{}, fmt.Errorf("timestamp %q is too short for ISO 8601 with a zone", s)
	}
	b := []byte(s)
	switch b[10] {
	case 'T', 't', ' ':
		b[10] = 'T'
	default:
		return time.Time{}, fmt.Errorf("timestamp %q has no T between date and time", s)
	}
	if last := len(b) - 1; b[last] == 'z' {
		b[last] = 'Z'
	}
	norm := string(b)
	if i := strings.LastIndexAny(norm[19:], "+-"); i >= 0 {
		zone := norm[19+i:]
		switch {
		case len(zone) == 3: // ±hh
			norm += ":00"
		case len(zone) == 5 && !strings.Contains(zone, ":"): // ±hhmm
			norm = norm[:len(norm)-2] + ":" + norm[len(norm)-2:]
		}
	}
	t, err := time.Parse(time.RFC3339Nano, norm)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q is not ISO 8601 with a zone", s)
	}
	return t, nil
}
