package transform

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimeAgo(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	r := &templateRun{now: func() time.Time { return now }}
	for _, tt := range []struct{ at, want string }{
		{"2026-11-20T09:59:30Z", "just now"},
		{"2026-11-20T09:00:00Z", "1 hour ago"},
		{"2026-11-20T12:30:00+05:00", "2 hours ago"},
		{"2026-11-17T10:00:00Z", "3 days ago"},
		{"2025-11-20T10:00:00Z", "1 year ago"},
		{"2026-11-21T10:00:00Z", "in the future"},
	} {
		got, err := r.timeago(tt.at)
		require.NoError(t, err, tt.at)
		assert.Equal(t, tt.want, got, tt.at)
	}
	_, err := r.timeago("yesterday")
	assert.Error(t, err)
}
