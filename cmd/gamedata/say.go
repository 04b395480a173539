package main

import (
	"fmt"
	"io"
	"strings"
)

// say writes one line on w: "gamedata: " and the message, on one line.
// Every line on stderr goes through here.
func say(w io.Writer, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(w, "gamedata: "+strings.Join(strings.Fields(msg), " "))
}
