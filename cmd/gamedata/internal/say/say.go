// Package say writes the command's lines on stderr: errors, notices and
// summaries, each one line beginning "gamedata: ", through the sanitizer,
// so that whatever a line quotes of the service cannot steer the
// terminal. It also spells counts for those lines, and writes the debug
// lines GAMEDATA_DEBUG asks for (NewDebugHandler) the same way.
package say

import (
	"fmt"
	"io"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// Line writes one line on w: "gamedata: " and the message, formatted as
// fmt.Sprintf does, through the sanitizer and on one line. Errors and
// notices quote the service (an ident, a member name, a body), so every
// line on stderr goes through here: whatever it quotes cannot steer the
// terminal.
func Line(w io.Writer, format string, args ...any) {
	msg := gamedata.NewUntrusted(fmt.Sprintf(format, args...)).String()
	fmt.Fprintln(w, "gamedata: "+unprefixed(strings.Join(strings.Fields(msg), " ")))
}

// unprefixed is msg without the "gamedata: " that the library's errors
// begin with, where msg begins with one or quotes an error after a
// colon ("watch: gamedata: page 1: …"): a line says "gamedata:" once.
func unprefixed(msg string) string {
	for strings.HasPrefix(msg, "gamedata: ") {
		msg = strings.TrimPrefix(msg, "gamedata: ")
	}
	for strings.Contains(msg, ": gamedata: ") {
		msg = strings.ReplaceAll(msg, ": gamedata: ", ": ")
	}
	return msg
}

// Plural is n and what, in the plural unless n is 1: "1 record", "3
// records".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
