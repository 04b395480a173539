package gamedatatest

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func isInt(v any) bool {
	_, ok := integer(v)
	return ok
}

// integer is v, a json.Number, as an integer.
func integer(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// pointFacts is what checkPoint reads of a well-formed activity point.
type pointFacts struct {
	ms                                        int64
	null, fraction, current, average, partial bool
}

// checkPoint checks point i of n, decoded with numbers as json.Number:
// seven elements; the time in integer ms; the players a number or null,
// whole in a snapshot; the current, aggregation and coverage flags 0 or 1,
// current only for the last point; a snapshot's interval bounds null, an
// average's integers, the start before the end. The checks are plain
// comparisons rather than assertions: they run for every one of 35,040
// points.
func checkPoint(raw any, i, n int) (pointFacts, error) {
	p, ok := raw.([]any)
	if !ok || len(p) != 7 {
		return pointFacts{}, fmt.Errorf("point %d: %v is not an array of seven", i, raw)
	}
	f, err := readPoint(p)
	if err == nil && f.current != (i == n-1) {
		err = fmt.Errorf("current is %v; only the latest point, %d, is current", f.current, n-1)
	}
	if err == nil {
		err = checkInterval(p, f)
	}
	if err != nil {
		return f, fmt.Errorf("point %d %v: %w", i, p, err)
	}
	return f, nil
}

// readPoint reads the time, players and flags of a point of seven.
func readPoint(p []any) (pointFacts, error) {
	var f pointFacts
	var ok bool
	if f.ms, ok = integer(p[0]); !ok {
		return f, errors.New("the time is not integer ms")
	}
	var flags [3]bool
	for k, at := range []int{2, 5, 6} {
		n, ok := integer(p[at])
		if !ok || (n != 0 && n != 1) {
			return f, fmt.Errorf("element %d is not a flag 0 or 1", at)
		}
		flags[k] = n == 1
	}
	f.current, f.average, f.partial = flags[0], flags[1], flags[2]
	switch v := p[1].(type) {
	case nil:
		f.null = true
	case json.Number:
		f.fraction = !isInt(v)
	default:
		return f, fmt.Errorf("players is a number or null, got %T", v)
	}
	return f, nil
}

// checkInterval checks the interval bounds of a point: null for a
// snapshot, which counts whole players; integers, the start before the
// end, for an average.
func checkInterval(p []any, f pointFacts) error {
	if !f.average {
		if p[3] != nil || p[4] != nil || f.fraction {
			return errors.New("a snapshot has null interval bounds and whole players")
		}
		return nil
	}
	start, okStart := integer(p[3])
	end, okEnd := integer(p[4])
	if !okStart || !okEnd || start >= end {
		return errors.New("an average has integer interval bounds, the start before the end")
	}
	return nil
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
				ms, ok := integer(v)
				require.True(t, ok, "partialCoverage holds Unix ms integers")
				listed[ms] = true
			}
			var prev int64
			var nulls, fractions, averages, snapshots, flaggedUnlisted, listedUnflagged int
			for i, raw := range points {
				f, err := checkPoint(raw, i, len(points))
				if err != nil {
					t.Fatal(err)
				}
				if f.ms <= prev {
					t.Fatalf("point %d: times increase, got %d after %d", i, f.ms, prev)
				}
				prev = f.ms
				nulls += boolInt(f.null)
				fractions += boolInt(f.fraction)
				averages += boolInt(f.average)
				snapshots += boolInt(!f.average)
				flaggedUnlisted += boolInt(f.partial && !listed[f.ms])
				listedUnflagged += boolInt(!f.partial && listed[f.ms])
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
