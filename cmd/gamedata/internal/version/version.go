// Package version says what the command is, from what the Go toolchain
// recorded in the binary: its module's version, the library's, the commit
// and the Go version.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// LibraryPath is the module path of the library this program is built on.
const LibraryPath = "github.com/gamedata-go/gamedata"

// String says what this program is, as the Go toolchain recorded it in
// the binary: the module's version ("(devel)" for a build from a
// clone, honestly: it is no release), the library's, the commit when the
// build recorded one, and the Go version.
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (built without module information)"
	}
	return Of(info)
}

// Of is String for the build information info.
func Of(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var details []string
	for _, d := range info.Deps {
		if d.Path == LibraryPath {
			lib := d.Version
			if d.Replace != nil {
				lib += " => " + d.Replace.Path + " " + d.Replace.Version
			}
			details = append(details, "library "+strings.TrimSpace(lib))
		}
	}
	var commit, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if commit != "" {
		details = append(details, "commit "+commit[:min(12, len(commit))]+modified)
	}
	details = append(details, info.GoVersion)
	return fmt.Sprintf("%s (%s)", v, strings.Join(details, ", "))
}
