// Package message is what the command says on stderr, and how:
//
//   - a line (Line): errors, notices and summaries, each one line
//     beginning "gamedata: ", through the sanitizer, so that whatever a
//     line quotes of the service cannot steer the terminal; Plural spells
//     counts for it, and Safe sanitizes what a message quotes;
//   - bad usage (UsageError, Usagef, ExactArgs), which exits with status
//     2, told apart by IsUsage and never by the words of a message;
//   - a failure (status 1) in words that say what to do (Explain,
//     Explained), what a command cut short kept (WithKept, Interrupted,
//     ExitInterrupted) and an item's own cause (ItemCause);
//   - what a message must not carry: a URL's secrets (RedactURLs);
//   - the debug lines GAMEDATA_DEBUG asks for (NewDebugHandler), written
//     as Line writes.
//
// The secrets of a database's connection string have their own reader,
// internal/dsn, which knows its forms.
package message

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
	msg := Safe(fmt.Sprintf(format, args...))
	fmt.Fprintln(w, "gamedata: "+unprefixed(strings.Join(strings.Fields(msg), " ")))
}

// Safe is text from the service or the command line, sanitized.
func Safe(s string) string { return gamedata.NewUntrusted(s).String() }

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
