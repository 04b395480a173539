package httpcache

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// directives are the Cache-Control directives the cache acts on. Others
// are read past. When a directive is repeated the first occurrence counts
// (RFC 9111 §4.2.1 allows it).
type directives struct {
	noStore, noCache, mustRevalidate bool
	maxAge, staleIfError             seconds
}

// seconds is a delta-seconds directive. present is false when the
// directive is absent; ok is false when it is present but not a
// non-negative integer, which RFC 9111 §4.2.1 says to treat as stale. A
// value too large for the clock is capped at 2^31 seconds, as RFC 9111
// §1.2.2 asks.
type seconds struct {
	v           time.Duration
	present, ok bool
}

// parseCacheControl reads every Cache-Control line of h. Commas inside a
// quoted value (no-cache="a, b") do not split directives; a malformed
// directive is skipped, not fatal, as RFC 9111 asks of a cache. It is on
// every response the cache keeps or revalidates, so it allocates only to
// unquote a quoted number.
func parseCacheControl(h http.Header) directives {
	var d directives
	for _, line := range h["Cache-Control"] {
		for rest := line; rest != ""; {
			var part string
			part, rest = nextDirective(rest)
			name, value, _ := strings.Cut(part, "=")
			d.set(strings.TrimSpace(name), strings.TrimSpace(value))
		}
	}
	return d
}

// set records the directive name with value, unless an earlier one of the
// same name was recorded.
func (d *directives) set(name, value string) {
	switch {
	case strings.EqualFold(name, "no-store"):
		d.noStore = true
	case strings.EqualFold(name, "no-cache"):
		d.noCache = true
	case strings.EqualFold(name, "must-revalidate"):
		d.mustRevalidate = true
	case strings.EqualFold(name, "max-age") && !d.maxAge.present:
		d.maxAge = parseSeconds(unquoteDirective(value))
	case strings.EqualFold(name, "stale-if-error") && !d.staleIfError.present:
		d.staleIfError = parseSeconds(unquoteDirective(value))
	}
}

// nextDirective splits line at its first comma outside a quoted string.
func nextDirective(line string) (part, rest string) {
	quoted, escaped := false, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case escaped:
			escaped = false
		case quoted && c == '\\':
			escaped = true
		case c == '"':
			quoted = !quoted
		case c == ',' && !quoted:
			return line[:i], line[i+1:]
		}
	}
	return line, ""
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

// parseSeconds reads the value of a delta-seconds directive.
func parseSeconds(s string) seconds {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return seconds{present: true}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > math.MaxInt32 {
		n = math.MaxInt32 + 1
	}
	return seconds{v: time.Duration(n) * time.Second, present: true, ok: true}
}
