package gamedatatest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A twin started at a time serves what one started at the reference time
// serves once advanced to it, and never starts before the reference time.
func TestWithNow(t *testing.T) {
	t.Parallel()
	later := referenceTime.Add(8*24*time.Hour + 17*time.Minute)
	for _, tt := range []struct {
		name  string
		start time.Time
		want  time.Time
	}{
		{"later", later, later},
		{"the reference time", referenceTime, referenceTime},
		{"earlier", referenceTime.Add(-time.Hour), referenceTime},
		{"zero", time.Time{}, referenceTime},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithSize(3, 2, 1), WithNow(tt.start))
			defer s.Close()
			advanced := NewServer(WithSize(3, 2, 1))
			defer advanced.Close()
			advanced.Advance(tt.want.Sub(referenceTime))
			assert.Equal(t, tt.want, s.Catalog().Now)
			for _, path := range []string{"/api/activity-history?range=30d", "/api/analytics/packages/" + s.Catalog().Packages[0].Kind + "/" + s.Catalog().Packages[0].Ident} {
				assert.Equal(t, get(t, advanced, path).body, get(t, s, path).body, path)
			}
		})
	}
}
