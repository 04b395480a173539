package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
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

// In CSV and tables capturedAt is UTC RFC 3339, whatever zone and
// precision the service wrote, so that rows sort by it; JSON keeps it as
// sent. --range prints the report's summary of that range, and a range
// it lacks is refused with those it has.
func TestAnalyticsTimesAndSummaries(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	pkg := twin.Catalog().Packages[0]
	ref := pkg.Kind + "/" + pkg.Ident
	var sent struct {
		History []struct {
			CapturedAt string `json:"capturedAt"`
		}
		Summary map[string]map[string]any
	}
	require.NoError(t, json.Unmarshal(twin.Catalog().PackageReport(pkg.Kind, pkg.Ident), &sent))
	zoned := 0
	for _, h := range sent.History {
		if !strings.HasSuffix(h.CapturedAt, "Z") {
			zoned++
		}
	}
	require.Positive(t, zoned, "the twin sends capturedAt in several zones")

	code, out, errOut := cli(t, twin.URL, "analytics", "package", ref, "-o", "csv")
	require.Equal(t, 0, code, errOut)
	rows := csvRows(t, out)
	var times []string
	for i, r := range rows[1:] {
		want, err := time.Parse(time.RFC3339Nano, sent.History[i].CapturedAt)
		require.NoError(t, err)
		assert.Equal(t, want.UTC().Format(time.RFC3339), r[0], "entry %d, sent as %s", i, sent.History[i].CapturedAt)
		times = append(times, r[0])
	}
	assert.True(t, slices.IsSorted(times), "the rows sort by time as text")

	code, out, errOut = onTerminal(t, twin.URL, 120, "analytics", "package", ref)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ `, out, "a table too")

	code, out, errOut = cli(t, twin.URL, "analytics", "package", ref, "-o", "json")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, sent.History[1].CapturedAt, "JSON is as sent")

	code, out, errOut = cli(t, twin.URL, "analytics", "package", ref, "--range", "7d", "-o", "csv")
	require.Equal(t, 0, code, errOut)
	rows = csvRows(t, out)
	require.Len(t, rows, 2)
	assert.Equal(t, printer.SummaryColumns, rows[0])
	assert.Equal(t, "7d", rows[1][0])
	assert.Equal(t, fmt.Sprint(sent.Summary["7d"]["average"]), rows[1][2])

	code, _, errOut = cli(t, twin.URL, "analytics", "package", ref, "--range", "1y")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--range "1y": the report has no summary of that range; it has `)
	for r := range sent.Summary {
		assert.Contains(t, errOut, r)
	}
}

// analytics search finds the games and organizations that have analytics,
// a row a hit, with its type and name.
func TestAnalyticsSearch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "analytics", "search", "e", "-o", "csv")
	require.Equal(t, 0, code, errOut)
	rows := csvRows(t, out)
	require.Greater(t, len(rows), 2)
	types := map[string]bool{}
	for _, r := range rows[1:] {
		types[r[0]] = true
		assert.NotEmpty(t, r[indexOf(rows[0], "name")], "every hit is named")
	}
	assert.Equal(t, map[string]bool{"package": true, "organization": true}, types)
}
