package main

import (
	"io"
	"os"
)

// iostreams are the program's output streams and whether each is a
// terminal: tables and progress bars are for people, never for pipes.
type iostreams struct {
	out, errOut    io.Writer
	outTTY, errTTY bool
}

func newIOStreams(stdout, stderr io.Writer) *iostreams {
	return &iostreams{out: stdout, errOut: stderr, outTTY: isTerminal(stdout), errTTY: isTerminal(stderr)}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
