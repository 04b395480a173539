package main

import (
	"io"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/help"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command's description wraps to the terminal (80 cells at most, and
// in a pipe) with no line broken mid-phrase: each line is within the
// width, and the next line's first word would not have fitted on it.
func TestHelpWraps(t *testing.T) {
	t.Parallel()
	names := []string{""}
	f := newFactory(io.Discard, io.Discard)
	for _, c := range commands(f) {
		names = append(names, c.Name())
	}
	for _, width := range []int{0, 60, 200} {
		for _, name := range names {
			args := []string{"help"}
			if name != "" {
				args = append(args, name)
			}
			code, out, errOut := onTerminal(t, "http://unused.invalid", width, args...)
			if width == 0 {
				code, out, errOut = cli(t, "http://unused.invalid", args...)
			}
			require.Equal(t, 0, code, "%v: %s", args, errOut)
			long, _, ok := strings.Cut(out, "\n\nUsage:")
			require.True(t, ok, "%v: %q", args, out)
			limit := help.Width
			if width > 0 {
				limit = min(width, help.Width)
			}
			for _, para := range strings.Split(long, "\n\n") {
				if help.LaidOut(para) {
					continue
				}
				lines := strings.Split(para, "\n")
				for i, line := range lines {
					words := strings.Fields(line)
					if len(words) > 1 {
						assert.LessOrEqual(t, textwidth.Width(line), limit, "%v at %d: %q", args, width, line)
					}
					if i+1 < len(lines) {
						next := strings.Fields(lines[i+1])[0]
						assert.Greater(t, textwidth.Width(line)+1+textwidth.Width(next), limit,
							"%v at %d: %q broken before %q, which fits", args, width, line, next)
					}
				}
			}
		}
	}
}
