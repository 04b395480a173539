package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// iostreams are the program's output streams and whether each is a
// terminal: tables and progress bars are for people, never for pipes.
type iostreams struct {
	out, errOut    io.Writer
	outTTY, errTTY bool
	// width is the width of the terminal stdout is, in cells: what a
	// table and a chart in the terminal fit in. It is defaultWidth when
	// the terminal does not say, and 0 when stdout is not a terminal,
	// where nothing is cut to fit.
	width int
}

// defaultWidth is the width of a terminal that does not say its own.
const defaultWidth = 80

func newIOStreams(stdout, stderr io.Writer) *iostreams {
	s := &iostreams{out: stdout, errOut: stderr, outTTY: isTerminal(stdout), errTTY: isTerminal(stderr)}
	if s.outTTY {
		s.width = terminalWidth(stdout)
	}
	return s
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is the width of the terminal w is, or defaultWidth when
// it does not say.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	return defaultWidth
}

// chartWidth is the width a chart drawn in the terminal takes: the
// terminal's, or defaultWidth in a pipe.
func (s *iostreams) chartWidth() int {
	if s.width > 0 {
		return s.width
	}
	return defaultWidth
}
