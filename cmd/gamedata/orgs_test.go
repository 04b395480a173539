package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrgs(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "orgs", "--all")
	require.Equal(t, 0, code, errOut)
	assert.Len(t, ndjson(t, out), len(twin.Catalog().Organizations))

	code, out, errOut = cli(t, twin.URL, "orgs", "--page-size", "2", "-o", "csv")
	require.Equal(t, 0, code, errOut)
	rows := csvRows(t, out)
	require.Len(t, rows, 3, "a header and one page")
	assert.Equal(t, []string{"ident", "name"}, rows[0][:2])
}
