// Package version says what the command is: the release a release build
// stamped into it (its version, commit and date), or else what the Go
// toolchain recorded in the binary (the module's version and the
// commit); then the library's version and the Go version.
package version

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// LibraryPath is the module path of the library this program is built on.
const LibraryPath = "github.com/gamedata-go/gamedata"

// What a release build stamps in with the linker (.goreleaser.yaml:
// -X github.com/gamedata-go/gamedata/cmd/gamedata/internal/version.version=v…,
// and so commit and date). go install and go build leave them empty,
// and the build information says what there is.
var (
	version string
	commit  string
	date    string
)

// Release is what a release build stamps into the binary: the version it
// was cut as, its commit and that commit's date (not the build's, so
// that two builds of a tag stamp the same). Each may be empty; the date
// is said only with a commit.
type Release struct{ Version, Commit, Date string }

// String says what this program is, from the release stamped into it
// and what the Go toolchain recorded in the binary.
func String() string {
	info, ok := debug.ReadBuildInfo()
	if !ok && version == "" {
		return "unknown (built without module information)"
	}
	if !ok {
		info = &debug.BuildInfo{}
	}
	return Of(info, Release{Version: version, Commit: commit, Date: date})
}

// Of is String for the build information info and the release rel: the
// release's version, or the module's ("(devel)" for a build from a
// clone, honestly: it is no release); the library's version; the
// release's commit and its date, or the commit the build recorded; and
// the Go version.
func Of(info *debug.BuildInfo, rel Release) string {
	v := rel.Version
	if v == "" {
		v = info.Main.Version
	}
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
	if c := builtFrom(info, rel); c != "" {
		details = append(details, "commit "+c)
	}
	if info.GoVersion != "" {
		details = append(details, info.GoVersion)
	}
	if len(details) == 0 {
		return v
	}
	return fmt.Sprintf("%s (%s)", v, strings.Join(details, ", "))
}

// builtFrom is the commit the program was built from, cut to 12
// characters: the release's, with its date when stamped, or the one the
// build recorded, said as modified when the build saw uncommitted
// changes.
func builtFrom(info *debug.BuildInfo, rel Release) string {
	if rel.Commit != "" {
		c := rel.Commit[:min(12, len(rel.Commit))]
		if rel.Date != "" {
			c += " of " + rel.Date
		}
		return c
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
	if commit == "" {
		return ""
	}
	return commit[:min(12, len(commit))] + modified
}
