// Package help wraps every command's long description to the terminal,
// so that texts holding values written in at build time (a timeout,
// column lists) never break mid-phrase.
package help

import (
	"strings"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
	"github.com/spf13/cobra"
)

// Width is the width help text is wrapped to in a pipe, or on a
// terminal wider than reads well.
const Width = 80

// Wrap makes every command's help wrap its long description to the
// terminal, as wide as termWidth says when it is above 0 (Width at most,
// and in a pipe): the texts hold values written in at build time (a
// timeout, column lists), so their own line breaks fall mid-phrase.
func Wrap(root *cobra.Command, termWidth func() int) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		width := Width
		if w := termWidth(); w > 0 {
			width = min(w, Width)
		}
		cmd.Long = Reflow(cmd.Long, width)
		help(cmd, args)
	})
}

// Reflow wraps each paragraph of text (paragraphs are parted by a blank
// line) to width terminal cells, a word longer than width on a line of
// its own. A paragraph with an indented line, or a line that begins a
// list ("- "), is laid out by hand and kept as it is.
func Reflow(text string, width int) string {
	paras := strings.Split(text, "\n\n")
	for i, p := range paras {
		if LaidOut(p) {
			continue
		}
		var b strings.Builder
		n := 0
		for _, w := range strings.Fields(p) {
			ww := textwidth.Width(w)
			switch {
			case n == 0:
			case n+1+ww > width:
				b.WriteByte('\n')
				n = 0
			default:
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += ww
		}
		paras[i] = b.String()
	}
	return strings.Join(paras, "\n\n")
}

// LaidOut reports whether a paragraph's line breaks are its own layout.
func LaidOut(p string) bool {
	for _, line := range strings.Split(p, "\n") {
		if strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "- ") {
			return true
		}
	}
	return false
}
