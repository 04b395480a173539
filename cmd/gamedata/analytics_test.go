package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAnalytics(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	code, out, _ := cli(t, twin.URL, "analytics", "package", ref, "-o", "csv")
	require.Equal(t, 0, code)
	rows := csvRows(t, out)
	var truthReport struct{ History []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().PackageReport(pkg.Kind, pkg.Ident), &truthReport))
	require.Len(t, rows, len(truthReport.History)+1)
	assert.Equal(t, []string{"capturedAt", "partialCoverage"}, rows[0][:2])

	code, out, _ = cli(t, twin.URL, "analytics", "org", twin.Catalog().Organizations[0].Ident, "-o", "json")
	require.Equal(t, 0, code)
	var report map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	assert.Contains(t, report, "history")
}
