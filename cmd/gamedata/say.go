package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// say writes one line on w: "gamedata: " and the message, through the
// sanitizer and on one line. Errors and notices quote the service (an
// ident, a member name, a body), so every line on stderr goes through
// here: whatever it quotes cannot steer the terminal.
func say(w io.Writer, format string, args ...any) {
	msg := gamedata.NewUntrusted(fmt.Sprintf(format, args...)).String()
	fmt.Fprintln(w, "gamedata: "+strings.Join(strings.Fields(msg), " "))
}
