// Package docgen writes the command reference from the cobra commands
// themselves, so the reference cannot say what the commands do not: a
// markdown page and a man page (section 1) for each command.
package docgen

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// Write writes the reference of root and every command under it into dir:
// dir/commands/gamedata_get.md and dir/man/gamedata-get.1 for the command
// "gamedata get", and so for each. date is the month the man pages
// carry; a fixed date keeps the output the same from run to run, as does
// root's DisableAutoGenTag, which Write sets (cobra otherwise stamps every
// page with the day it ran).
func Write(root *cobra.Command, dir string, date time.Time) error {
	root.DisableAutoGenTag = true
	md := filepath.Join(dir, "commands")
	man := filepath.Join(dir, "man")
	for _, d := range []string{md, man} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("command reference: %w", err)
		}
	}
	if err := doc.GenMarkdownTree(root, md); err != nil {
		return fmt.Errorf("command reference: markdown into %s: %w", md, err)
	}
	header := &doc.GenManHeader{Title: "GAMEDATA", Section: "1", Source: "gamedata", Manual: "gamedata manual", Date: &date}
	if err := doc.GenManTree(root, header, man); err != nil {
		return fmt.Errorf("command reference: man pages into %s: %w", man, err)
	}
	return nil
}
