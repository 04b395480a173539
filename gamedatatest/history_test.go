package gamedatatest

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func isInt(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	_, err := n.Int64()
	return err == nil
}

func flag(t *testing.T, v any) int64 {
	t.Helper()
	require.True(t, isInt(v), "a flag is an integer, got %v", v)
	n, _ := v.(json.Number).Int64()
	require.Contains(t, []int64{0, 1}, n)
	return n
}

func TestActivityPoints(t *testing.T) {
	t.Parallel()
	s := NewServer()
	t.Cleanup(s.Close) // after the parallel subtests
	now := s.Catalog().Now.UnixMilli()
	tests := []struct {
		rng, want string
		points    int
		snapshots bool // every point is a snapshot
	}{
		{"24h", "24h", 1440, true},
		{"7d", "7d", 2016, false},
		{"", "7d", 2016, false},
		{"bogus", "7d", 2016, false},
		{"30d", "30d", 2880, false},
		{"90d", "90d", 4320, false},
		{"1y", "1y", 17520, false},
		{"all", "all", 35040, false},
	}
	for _, tt := range tests {
		t.Run(tt.rng, func(t *testing.T) {
			t.Parallel()
			r := get(t, s, "/api/activity-history?range="+tt.rng)
			require.Equal(t, 200, r.status)
			body := decodeNumbers(t, r.body)
			assert.Equal(t, tt.want, body["range"])
			points := body["points"].([]any)
			require.Len(t, points, tt.points)

			listed := map[int64]bool{}
			for _, v := range body["partialCoverage"].([]any) {
				require.True(t, isInt(v), "partialCoverage holds Unix ms integers")
				ms, _ := v.(json.Number).Int64()
				listed[ms] = true
			}
			var prev int64
			var nulls, fractions, averages, snapshots, flaggedUnlisted, listedUnflagged int
			for i, raw := range points {
				p, ok := raw.([]any)
				require.True(t, ok)
				require.Len(t, p, 7, "point %d", i)
				require.True(t, isInt(p[0]), "time is integer ms: %v", p[0])
				ms, _ := p[0].(json.Number).Int64()
				require.Greater(t, ms, prev, "times increase")
				prev = ms
				switch v := p[1].(type) {
				case nil:
					nulls++
				case json.Number:
					if !isInt(v) {
						fractions++
					}
				default:
					t.Fatalf("players is a number or null, got %T", v)
				}
				current, agg, partial := flag(t, p[2]), flag(t, p[5]), flag(t, p[6])
				assert.Equal(t, i == len(points)-1, current == 1, "only the latest point is current (point %d)", i)
				if agg == 0 {
					snapshots++
					assert.Nil(t, p[3], "snapshot %d has no interval start", i)
					assert.Nil(t, p[4], "snapshot %d has no interval end", i)
					assert.True(t, p[1] == nil || isInt(p[1]), "a snapshot counts whole players")
				} else {
					averages++
					require.True(t, isInt(p[3]) && isInt(p[4]), "average %d has interval bounds", i)
					start, _ := p[3].(json.Number).Int64()
					end, _ := p[4].(json.Number).Int64()
					assert.Less(t, start, end)
				}
				if partial == 1 && !listed[ms] {
					flaggedUnlisted++
				}
				if partial == 0 && listed[ms] {
					listedUnflagged++
				}
			}
			assert.Equal(t, now, prev, "the last point is now")
			assert.Positive(t, nulls, "some points have null players")
			assert.Positive(t, flaggedUnlisted, "a flagged point missing from partialCoverage")
			assert.Positive(t, listedUnflagged, "a listed point whose flag is 0")
			assert.Positive(t, snapshots)
			if tt.snapshots {
				assert.Zero(t, averages)
			} else {
				assert.Positive(t, averages)
				assert.Positive(t, fractions, "averages are fractional")
			}
		})
	}
}

func TestHistoryPoints(t *testing.T) {
	t.Parallel()
	s := NewServer(WithHistoryPoints(5000))
	defer s.Close()
	for _, rng := range []string{"24h", "all"} {
		h := object(t, s.Catalog().ActivityHistory(rng))
		assert.Len(t, h["points"], 5000, rng)
	}
}

var capturedAtRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$`)

func TestCapturedAtForms(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	pkg := c.Packages[0]
	org := c.Organizations[0]
	for _, path := range []string{
		"/api/analytics/packages/" + pkg.Kind + "/" + pkg.Ident,
		"/api/analytics/organizations/" + org.Ident,
	} {
		t.Run(path, func(t *testing.T) {
			body := getOK(t, s, path)
			zones, digits := map[string]bool{}, map[int]bool{}
			var prev time.Time
			var nullPlayers, nullPeaks, fractional, partial int
			for _, e := range maps(t, body["history"]) {
				at, ok := e["capturedAt"].(string)
				require.True(t, ok)
				m := capturedAtRE.FindStringSubmatch(at)
				require.NotNil(t, m, "capturedAt %q is ISO 8601", at)
				digits[max(len(m[1])-1, 0)] = true
				zones[m[2]] = true
				ts, err := time.Parse(time.RFC3339Nano, at)
				require.NoError(t, err)
				assert.True(t, ts.After(prev), "history is in time order")
				prev = ts
				switch p := e["players"].(type) {
				case nil:
					nullPlayers++
				case float64:
					if p != float64(int64(p)) {
						fractional++
					}
				}
				if e["playersPeak"] == nil {
					nullPeaks++
				}
				if e["partialCoverage"] == true {
					partial++
				}
			}
			for _, z := range []string{"Z", "+00:00", "+02:00", "-05:30"} {
				assert.True(t, zones[z], "a capturedAt with zone %s", z)
			}
			for _, d := range []int{0, 3, 6, 9} {
				assert.True(t, digits[d], "a capturedAt with %d fractional digits", d)
			}
			assert.Positive(t, nullPlayers)
			assert.Positive(t, nullPeaks)
			assert.Positive(t, fractional)
			assert.Positive(t, partial)
			summary := body["summary"].(map[string]any)
			for _, r := range []string{"24h", "7d", "30d", "90d"} {
				sm, ok := summary[r].(map[string]any)
				require.True(t, ok, "summary for %s", r)
				assert.Contains(t, sm, "average")
				assert.Contains(t, sm, "peak")
				assert.IsType(t, true, sm["partialCoverage"])
			}
			assert.Equal(t, true, summary["90d"].(map[string]any)["partialCoverage"])
			assert.Equal(t, body, object(t, reportBody(c, path)))
		})
	}
}

// reportBody is what the Catalog says path answers.
func reportBody(c *Catalog, path string) []byte {
	seg := strings.Split(strings.TrimPrefix(path, "/api/analytics/"), "/")
	if seg[0] == "packages" {
		return c.PackageReport(seg[1], seg[2])
	}
	return c.OrganizationReport(seg[1])
}
