package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActivity(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "activity", "--range", "24h")
	require.Equal(t, 0, code, errOut)
	points := ndjson(t, out)
	var truth struct{ Points [][]any }
	require.NoError(t, json.Unmarshal(twin.Catalog().ActivityHistory("24h"), &truth))
	require.Len(t, points, len(truth.Points))
	nulls := 0
	for i, p := range points {
		if truth.Points[i][1] == nil {
			nulls++
			assert.Nil(t, p["players"], "point %d: null is null, never 0", i)
		}
	}
	assert.Positive(t, nulls)
}
