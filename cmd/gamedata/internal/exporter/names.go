package exporter

import (
	"strings"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// maxLabelRunes bounds a label value taken from the service: a title or an
// ident of any length must not make a series of any size.
const maxLabelRunes = 128

// maxMemberName bounds the part of a metric name derived from a member
// name; a longer member is not exported.
const maxMemberName = 64

// maxMemberBytes bounds the member names read for a metric name at all:
// one of more bytes cannot leave maxMemberName characters.
const maxMemberBytes = 4 * maxMemberName

// labelValue is text from the service made fit for a label value: the
// sanitizer removes what could steer a terminal or a reader (escapes,
// controls, bidirectional and invisible characters) and turns invalid
// UTF-8 into U+FFFD, which client_golang would refuse; the result is cut
// to maxLabelRunes runes, the cut marked with an ellipsis.
func labelValue(s string) string {
	v := gamedata.NewUntrusted(s).String()
	n := 0
	for i := range v {
		if n == maxLabelRunes {
			return v[:i] + "…"
		}
		n++
	}
	return v
}

// memberSuffix derives the part of a metric name that stands for an
// entry's member: camelCase becomes snake_case, ASCII letters are
// lowered, and every run of other characters (punctuation, spaces,
// anything outside ASCII) becomes one underscore, so only [a-z0-9_]
// survive. ok is false when nothing is left or the result is longer than
// maxMemberName. A suffix that a reader of an exposition takes for a
// counter's, a histogram's or a summary's (_total, _count, _sum, _bucket,
// _created) gets "_value" after it, since the metric is a gauge.
func memberSuffix(member string) (suffix string, ok bool) {
	if len(member) > maxMemberBytes {
		return "", false
	}
	s := gaugeName(snakeCase(member))
	if s == "" || len(s) > maxMemberName {
		return "", false
	}
	return s, true
}

// snakeCase is member in snake_case, with only [a-z0-9_] and no
// underscore at either end.
func snakeCase(member string) string {
	var b strings.Builder
	under := true // no underscore at the start
	for i, r := range member {
		switch {
		case isUpper(r):
			if !under && startsWord(member, i) {
				b.WriteByte('_')
			}
			b.WriteRune(r - 'A' + 'a')
			under = false
		case isLower(r), r >= '0' && r <= '9':
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// gaugeName is s with "_value" after it when it ends as a counter's, a
// histogram's or a summary's series does.
func gaugeName(s string) string {
	for _, reserved := range []string{"total", "count", "sum", "bucket", "created"} {
		if s == reserved || strings.HasSuffix(s, "_"+reserved) {
			return s + "_value"
		}
	}
	return s
}

// startsWord reports whether the upper-case letter at byte i of s starts a
// word of a camelCase name: after a lower-case letter or a digit
// ("maxPlayers"), or as the last capital of an acronym before a
// lower-case letter ("HTTPServer").
func startsWord(s string, i int) bool {
	prev, _ := utf8.DecodeLastRuneInString(s[:i])
	if isLower(prev) || (prev >= '0' && prev <= '9') {
		return true
	}
	next, _ := utf8.DecodeRuneInString(s[i+1:])
	return isUpper(prev) && isLower(next)
}

func isLower(r rune) bool { return r >= 'a' && r <= 'z' }
func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }
