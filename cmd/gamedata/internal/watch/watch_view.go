package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
)

// maxChangedShown is how many changed members a change line names before
// it says how many more there are.
const maxChangedShown = 4

// Header is the line that says on a terminal what a watch polls and
// how often, before its first change comes.
func Header(kind string, refs []gamedata.PackageRef, every time.Duration) string {
	if len(refs) > 0 {
		names := make([]string, len(refs))
		for i, r := range refs {
			names[i] = message.Safe(r.Kind + "/" + r.Ident)
		}
		return fmt.Sprintf("watch: watching %s every %s, a line a change; Ctrl-C to stop", message.Plural(len(names), "package")+" ("+strings.Join(names, ", ")+")", every)
	}
	what := "the directory"
	if kind != "" {
		what = "the " + message.Safe(kind) + " directory"
	}
	return fmt.Sprintf("watch: watching %s every %s, a line a change (the first poll lists every entry as added); Ctrl-C to stop", what, every)
}

// ChangeLine is a change as a person reads it, one line: what changed
// (its op and identity, and its title or name), and for an update the
// members that changed, old → new. Every text the service sent is
// sanitized; width, when above 0, is the terminal's, which it fits.
func ChangeLine(op string, old, new gamedata.Fields, width int) string {
	rec := new
	if op == "removed" {
		rec = old
	}
	line := fmt.Sprintf("%-7s %s", op, identityOf(rec))
	if title := titleOf(rec); title != "" {
		line += "  " + title
	}
	if op == "updated" {
		if changed := changedMembers(old, new); changed != "" {
			line += ": " + changed
		}
	}
	if width > 0 {
		line = textwidth.Truncate(line, width)
	}
	return line
}

// identityOf is a record's identity as a person types it: KIND/IDENT for
// a package, the id of a server, the ident of anything else.
func identityOf(f gamedata.Fields) string {
	kind, _ := f.Text("kind")
	ident, hasIdent := f.Text("ident")
	if id, ok := f.Text("id"); ok && !hasIdent {
		return id.String()
	}
	if kind.Unsanitized() != "" {
		return gamedata.NewUntrusted(kind.Unsanitized() + "/" + ident.Unsanitized()).String()
	}
	return ident.String()
}

// titleOf is a record's title, or its name, sanitized.
func titleOf(f gamedata.Fields) string {
	for _, m := range []string{"title", "name"} {
		if s, ok := f.Text(m); ok && s.Unsanitized() != "" {
			return s.String()
		}
	}
	return ""
}

// changedMembers names the members whose values differ between old and
// new, each "name old → new", the first maxChangedShown of them; a
// member that came or went is shown as absent.
func changedMembers(old, new gamedata.Fields) string {
	var parts []string
	names := printer.MemberOrder(new)
	for _, n := range printer.MemberOrder(old) {
		if _, ok := new.Raw(n); !ok {
			names = append(names, n)
		}
	}
	more := 0
	for _, n := range names {
		a, aok := old.Raw(n)
		b, bok := new.Raw(n)
		if aok == bok && bytes.Equal(a, b) {
			continue
		}
		if len(parts) == maxChangedShown {
			more++
			continue
		}
		parts = append(parts, message.Safe(n)+" "+shownValue(a, aok)+" → "+shownValue(b, bok))
	}
	if more > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(parts, ", ")
}

// shownValue is a member's value for a change line, cut short: null as
// null, a string unquoted, anything else as sent.
func shownValue(raw []byte, ok bool) string {
	if !ok {
		return "(absent)"
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw) // not a string: as sent
	}
	return textwidth.Truncate(message.Safe(s), 24)
}
