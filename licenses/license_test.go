package licenses

import (
	"os"
	"path/filepath"
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
