package cli

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
)

// The twin an example starts for a person runs at the wall clock's time,
// as the command's does: its activity history reaches today, not the
// reference time that tests keep.
func TestConnectedTwinIsNow(t *testing.T) {
	before := time.Now()
	var stderr bytes.Buffer
	client, _, stop, err := Connect("test", "", &stderr)
	require.NoError(t, err)
	defer stop()
	assert.Contains(t, stderr.String(), "in-process twin")
	h, err := client.Activity.History(context.Background(), &gamedata.ActivityOptions{Range: "24h"})
	require.NoError(t, err)
	require.NotEmpty(t, h.Points)
	last := h.Points[len(h.Points)-1].Time
	assert.WithinDuration(t, before, last, time.Hour, "the history ends at the twin's start, now")
}
