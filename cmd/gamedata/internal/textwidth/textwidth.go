// Package textwidth measures and cuts text the way a terminal shows it:
// in cells, a grapheme cluster at a time, so that columns line up
// whatever the service sends.
package textwidth

import (
	"strings"

	"github.com/rivo/uniseg"
)

// A terminal lays text out in cells, not runes or bytes: "🎮" takes two,
// "é" written as e and a combining accent takes one, a flag of two
// regional indicators takes two; uniseg knows which.

// Width is the number of terminal cells s takes.
func Width(s string) int { return uniseg.StringWidth(s) }

// Truncate cuts s to at most width cells, ending it with "…" when it
// is cut; it never splits a grapheme cluster.
func Truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if Width(s) <= width {
		return s
	}
	var b strings.Builder
	used, state := 0, -1
	for s != "" {
		var cluster string
		var w int
		cluster, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if used+w > width-1 { // a cell for the ellipsis
			break
		}
		b.WriteString(cluster)
		used += w
	}
	return b.String() + "…"
}

// Pad pads s with spaces to width cells.
func Pad(s string, width int) string {
	if n := width - Width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}
