package version

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Of says the version a release stamped in, or else the one go install
// recorded ("(devel)" for a build from a clone), then the library's, the
// commit (with its date when a release stamped one) and the Go version.
func TestOf(t *testing.T) {
	t.Parallel()
	installed := &debug.BuildInfo{
		GoVersion: "go1.26.11",
		Main:      debug.Module{Path: "github.com/gamedata-go/gamedata/cmd/gamedata", Version: "v0.3.0"},
		Deps:      []*debug.Module{{Path: LibraryPath, Version: "v0.3.0"}},
	}
	clone := &debug.BuildInfo{
		GoVersion: "go1.26.11",
		Main:      debug.Module{Path: "github.com/gamedata-go/gamedata/cmd/gamedata", Version: "(devel)"},
		Deps:      []*debug.Module{{Path: LibraryPath, Version: "(devel)"}},
		Settings:  []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}},
	}
	release := Release{Version: "v0.3.0", Commit: "fedcba9876543210fedcba9876543210fedcba98", Date: "2026-11-28T10:00:00Z"}
	for _, tt := range []struct {
		name string
		info *debug.BuildInfo
		rel  Release
		want string
	}{
		{"go install …@v0.3.0", installed, Release{}, "v0.3.0 (library v0.3.0, go1.26.11)"},
		{"a build from a clone", clone, Release{}, "(devel) (library (devel), commit 0123456789ab, modified, go1.26.11)"},
		{"a release build", clone, release, "v0.3.0 (library (devel), commit fedcba987654 of 2026-11-28T10:00:00Z, go1.26.11)"},
		{"a snapshot", &debug.BuildInfo{GoVersion: "go1.26.11"}, Release{Version: "v0.2.1-SNAPSHOT-fedcba9", Commit: "fedcba9"}, "v0.2.1-SNAPSHOT-fedcba9 (commit fedcba9, go1.26.11)"},
		{"nothing recorded", &debug.BuildInfo{}, Release{}, "(devel)"},
	} {
		assert.Equal(t, tt.want, Of(tt.info, tt.rel), tt.name)
	}
}
