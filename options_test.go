package gamedata

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gamedata-go/gamedata/internal/version"
)

// gamedatatest writes internal/version's into a recording, since it cannot
// import this package: the two must say the same release.
func TestVersionIsInternalVersion(t *testing.T) {
	assert.Equal(t, Version, version.Version)
}
