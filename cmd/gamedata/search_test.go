package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearch(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "search", "miner")
	require.Equal(t, 0, code, errOut)
	var want struct{ Packages, Servers, Organizations []json.RawMessage }
	require.NoError(t, json.Unmarshal(twin.Catalog().Search("miner"), &want))
	assert.Len(t, ndjson(t, out), len(want.Packages)+len(want.Servers)+len(want.Organizations))
}
