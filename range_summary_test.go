package gamedata

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Range summaries decode from both envelope shapes the SDK accepts: an
// object keyed by range (testdata/analytics_package.json) and an array of
// objects naming their range (testdata/shapes/analytics_summaries_array.json).
func TestRangeSummaries(t *testing.T) {
	t.Parallel()
	type want struct {
		rng     string
		partial bool
		average Nullable[float64]
	}
	for _, tt := range []struct {
		file string
		want []want
	}{
		{"testdata/analytics_package.json", []want{
			{"7d", true, Value(1302.8)},
			{"30d", false, Null[float64]()},
		}},
		{"testdata/shapes/analytics_summaries_array.json", []want{
			{"24h", false, Value(1301.25)},
			{"7d", true, Null[float64]()},
			{"90d", false, Value(1100.0)},
		}},
	} {
		body, err := os.ReadFile(tt.file)
		require.NoError(t, err)
		_, f, err := decodeFields(body)
		require.NoError(t, err)
		_, got, err := decodeReport(f)
		require.NoError(t, err, tt.file)
		require.Len(t, got, len(tt.want), tt.file)
		for i, w := range tt.want {
			assert.Equal(t, w.rng, got[i].Range, tt.file)
			assert.Equal(t, w.partial, got[i].PartialCoverage, "%s %s", tt.file, w.rng)
			assert.Equal(t, w.average, got[i].Metric("average"), "%s %s: null is never 0", tt.file, w.rng)
			s, ok := got.Range(w.rng)
			assert.True(t, ok)
			assert.Equal(t, got[i].Range, s.Range)
		}
		_, ok := got.Range("1y")
		assert.False(t, ok, "a range the report lacks")
	}
}

func TestRangeSummariesRefuseBadShapes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		body, member, says string
	}{
		{`{"summary":[7]}`, "summary[0]", "want an object"},
		{`{"summary":"7d"}`, "summary", "want an object keyed by range or an array"},
		{`{"summary":{"7d":3}}`, `summary["7d"]`, "want an object"},
		{`{"summary":{"7d":{"partialCoverage":1}}}`, `summary["7d"]`, "partialCoverage is 1, want a boolean"},
		{`{"summaries":[{"average":3}]}`, "summaries[0]", "does not name its range"},
	} {
		_, f, err := decodeFields([]byte(tt.body))
		require.NoError(t, err)
		_, err = decodeSummaries(f)
		var de *DecodeError
		require.ErrorAs(t, err, &de, tt.body)
		assert.Equal(t, tt.member, de.Member, tt.body)
		assert.ErrorContains(t, err, tt.says, tt.body)
	}
	for _, body := range []string{`{}`, `{"summary":null}`, `{"summaries":{}}`} {
		_, f, err := decodeFields([]byte(body))
		require.NoError(t, err)
		got, err := decodeSummaries(f)
		require.NoError(t, err, body)
		assert.Empty(t, got, body)
	}
}

// A range sent twice means its last value, as everywhere else.
func TestRangeSentTwice(t *testing.T) {
	t.Parallel()
	_, f, err := decodeFields([]byte(`{"summary":{"7d":{"partialCoverage":true},"24h":{},"7d":{"partialCoverage":false}}}`))
	require.NoError(t, err)
	got, err := decodeSummaries(f)
	require.NoError(t, err)
	require.Len(t, got, 2)
	s, _ := got.Range("7d")
	assert.False(t, s.PartialCoverage)
}
