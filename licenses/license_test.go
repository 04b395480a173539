package licenses

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/licensecheck"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLicenseIsApache2 reads the repository's LICENSE as pkg.go.dev does,
// with github.com/google/licensecheck: one license, Apache-2.0, and the
// standard text in whole, since a license edited or cut short is one no
// scanner (and no company's lawyer) takes for the Apache License.
func TestLicenseIsApache2(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	require.NoError(t, err)
	cov := licensecheck.Scan(text)
	require.Len(t, cov.Match, 1, "LICENSE: want the Apache License 2.0 alone, found %+v", cov.Match)
	assert.Equal(t, "Apache-2.0", cov.Match[0].ID)
	assert.InDelta(t, 100, cov.Percent, 0.01, "LICENSE: want the standard text in whole, as https://www.apache.org/licenses/LICENSE-2.0.txt has it")
}

// TestEveryModuleCarriesTheLicense checks that each module of the
// repository has the root's LICENSE: a module's zip, which the go command
// and pkg.go.dev read, holds only the module's own directory, so a nested
// module without its copy is a module without a license.
func TestEveryModuleCarriesTheLicense(t *testing.T) {
	t.Parallel()
	root := ".."
	want, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	require.NoError(t, err)
	var mods []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.Name() == "go.mod" && filepath.Dir(path) != root:
			mods = append(mods, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, mods)
	for _, mod := range mods {
		dir := filepath.Dir(mod)
		got, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
		if assert.NoError(t, err, "%s: copy the repository's LICENSE into it", dir) {
			assert.Equal(t, string(want), string(got), "%s/LICENSE: not the repository's LICENSE; copy it again", dir)
		}
	}
}
