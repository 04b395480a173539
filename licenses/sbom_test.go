package licenses

import (
	"debug/buildinfo"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cycloneDX is what TestSBOMListsEveryLicense reads of a CycloneDX SBOM:
// the program, the components, and the licenses of each, stated or
// detected (cyclonedx-gomod gives what it detects as evidence).
type cycloneDX struct {
	Metadata struct {
		Component component `json:"component"`
	} `json:"metadata"`
	Components []component `json:"components"`
}

type component struct {
	Name     string          `json:"name"`
	Version  string          `json:"version"`
	Licenses []licenseChoice `json:"licenses"`
	Evidence struct {
		Licenses []licenseChoice `json:"licenses"`
	} `json:"evidence"`
}

type licenseChoice struct {
	License struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"license"`
	Expression string `json:"expression"`
}

// licenses are the licenses c lists, stated or detected.
func (c component) licenses() []string {
	var ids []string
	for _, l := range append(c.Licenses, c.Evidence.Licenses...) {
		for _, id := range []string{l.License.ID, l.License.Name, l.Expression} {
			if id != "" {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// TestSBOMListsEveryLicense checks a release's SBOM against its binary,
// both named by .ci/release-check after a snapshot
// ($GAMEDATA_RELEASE_SBOM, $GAMEDATA_RELEASE_BINARY): the program is
// Apache-2.0, and every module the binary was built with (as the Go
// linker recorded them) is a component of the SBOM, at its version, with
// a license.
func TestSBOMListsEveryLicense(t *testing.T) {
	sbomPath, binary := os.Getenv("GAMEDATA_RELEASE_SBOM"), os.Getenv("GAMEDATA_RELEASE_BINARY")
	if sbomPath == "" || binary == "" {
		t.Skip("GAMEDATA_RELEASE_SBOM and GAMEDATA_RELEASE_BINARY name no release: .ci/release-check sets them to a snapshot's")
	}
	data, err := os.ReadFile(sbomPath)
	require.NoError(t, err)
	var sbom cycloneDX
	require.NoError(t, json.Unmarshal(data, &sbom))
	info, err := buildinfo.ReadFile(binary)
	require.NoError(t, err)

	assert.Equal(t, info.Main.Path, sbom.Metadata.Component.Name)
	assert.Equal(t, []string{"Apache-2.0"}, sbom.Metadata.Component.licenses(), "the program's license")
	listed := map[string]component{}
	for _, c := range sbom.Components {
		listed[c.Name] = c
	}
	require.NotEmpty(t, info.Deps)
	for _, dep := range info.Deps {
		c, ok := listed[dep.Path]
		if !assert.True(t, ok, "%s: built into %s but not in the SBOM", dep.Path, binary) {
			continue
		}
		// A module of the workspace the binary was built in has no
		// version of its own: "(devel)" to the linker, none in the SBOM.
		if dep.Replace == nil && dep.Version != "(devel)" {
			assert.Equal(t, dep.Version, c.Version, "%s: the SBOM's version", dep.Path)
		}
		assert.NotEmpty(t, c.licenses(), "%s: no license in the SBOM", dep.Path)
	}
}
