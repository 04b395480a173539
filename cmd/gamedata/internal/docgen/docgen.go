// Package docgen writes the command reference from the cobra commands
// themselves, so the reference cannot say what the commands do not: a
// markdown page and a man page (section 1) for each command.
package docgen

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// Write writes the reference of root and every command under it into dir:
// dir/commands/gamedata_get.md and dir/man/gamedata-get.1 for the command
// "gamedata get", and so for each command and help topic. date is the month the man pages
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
	for _, topic := range root.Commands() {
		if topic.IsAdditionalHelpTopicCommand() {
			if err := writeTopic(topic, md, man, *header); err != nil {
				return fmt.Errorf("command reference: %s: %w", topic.CommandPath(), err)
			}
		}
	}
	return nil
}

// writeTopic writes the pages of a help topic (a command with nothing to
// run, such as "gamedata environment"), which cobra's trees leave out:
// the reference lists every page "gamedata help" does.
func writeTopic(topic *cobra.Command, md, man string, header doc.GenManHeader) error {
	base := strings.ReplaceAll(topic.CommandPath(), " ", "_")
	err := writeFile(filepath.Join(md, base+".md"), func(w io.Writer) error {
		return doc.GenMarkdownCustom(topic, w, func(s string) string { return s })
	})
	if err != nil {
		return err
	}
	base = strings.ReplaceAll(topic.CommandPath(), " ", "-")
	return writeFile(filepath.Join(man, base+"."+header.Section), func(w io.Writer) error {
		return doc.GenMan(topic, &header, w)
	})
}

// writeFile makes path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
