package httpcache

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// directives are the directives of Cache-Control header lines, by
// lower-case name, with their values unquoted; a directive without a value
// maps to "". When a directive is repeated the first occurrence counts
// (RFC 9111 §4.2.1 allows it).
type directives map[string]string

// parseCacheControl reads every Cache-Control line of h. Commas inside a
// quoted value (no-cache="a, b") do not split directives; a malformed
// directive is skipped, not fatal, as RFC 9111 asks of a cache.
func parseCacheControl(h http.Header) directives {
	d := directives{}
	for _, line := range h.Values("Cache-Control") {
		for _, part := range splitDirectives(line) {
			name, value, _ := strings.Cut(part, "=")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			if _, seen := d[name]; seen {
				continue
			}
			d[name] = unquoteDirective(strings.TrimSpace(value))
		}
	}
	return d
}

// splitDirectives splits a line on the commas that are outside quoted
// strings.
func splitDirectives(line string) []string {
	var parts []string
	start, quoted, escaped := 0, false, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			parts = append(parts, line[start:i])
			start = i + 1
		}
	}
	return append(parts, line[start:])
}

func unquoteDirective(v string) string {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return v
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' && i+1 < len(v)-1 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

func (d directives) has(name string) bool {
	_, ok := d[name]
	return ok
}

// seconds reads a delta-seconds directive. present is false when the
// directive is absent; ok is false when it is present but not a
// non-negative integer, which RFC 9111 §4.2.1 says to treat as stale. A
// value too large for the clock is capped at 2^31 seconds, as RFC 9111
// §1.2.2 asks.
func (d directives) seconds(name string) (v time.Duration, present, ok bool) {
	s, present := d[name]
	if !present {
		return 0, false, false
	}
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, true, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > math.MaxInt32 {
		n = math.MaxInt32 + 1
	}
	return time.Duration(n) * time.Second, true, true
}
