package exporter

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// timestamp writes every int64 millisecond time as OpenMetrics seconds,
// before the epoch and at both ends of int64 included.
func TestTimestamp(t *testing.T) {
	for _, tc := range []struct {
		ms   int64
		want string
	}{
		{0, "0.000"},
		{1, "0.001"},
		{-1, "-0.001"},
		{999, "0.999"},
		{-999, "-0.999"},
		{1000, "1.000"},
		{-1000, "-1.000"},
		{-1500, "-1.500"},
		{1500, "1.500"},
		{1763640000123, "1763640000.123"},
		{math.MaxInt64, "9223372036854775.807"},
		{math.MinInt64, "-9223372036854775.808"},
		{math.MinInt64 + 1, "-9223372036854775.807"},
	} {
		if got := timestamp(tc.ms); got != tc.want {
			t.Errorf("timestamp(%d) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

// extremeTimes are, by the member of the body they go in, activity
// points and a history entry the twin never sends: before 1970, and at
// the ends of the milliseconds the SDK reads (±2^53).
var extremeTimes = map[string][]json.RawMessage{
	"points": {
		json.RawMessage(`[-1500,7,0,null,null,0,0]`),
		json.RawMessage(`[-9007199254740992,8,0,null,null,0,0]`),
		json.RawMessage(`[9007199254740992,9,0,null,null,0,0]`),
	},
	"history": {json.RawMessage(`{"capturedAt":"1969-12-31T23:59:58.5Z","partialCoverage":false,"players":3,"playersPeak":4}`)},
}

// withExtremeTimes makes the twin's activity history hold extremeTimes
// besides its own points, and each analytics history hold them beside
// one entry of its own: a history of a few points, which promtool turns
// into a few blocks.
func withExtremeTimes(twin *gamedatatest.Server) {
	twin.SetFaults(gamedatatest.Faults{Rate: 1,
		Match: func(r *http.Request) bool {
			return r.URL.Path == "/api/activity-history" || strings.HasPrefix(r.URL.Path, "/api/analytics/packages/")
		},
		Answer: func(w http.ResponseWriter, _ *http.Request, real gamedatatest.Response) {
			var body map[string]json.RawMessage
			if err := json.Unmarshal(real.Body, &body); err != nil {
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
			for member, extreme := range extremeTimes {
				var own []json.RawMessage
				if err := json.Unmarshal(body[member], &own); err != nil || len(own) == 0 {
					continue
				}
				if member == "history" {
					own = own[len(own)-1:]
				}
				body[member], _ = json.Marshal(append(slices.Clone(extreme), own...))
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(body)
		}})
}

// A backfill of a history that holds times Prometheus cannot store
// (before 1970, and at ±2^53 ms) leaves those
// points out and counts them, and the real promtool turns the file into
// blocks holding every sample written.
func TestBackfillUnstorableTimes(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed; apt-get install -y prometheus to run this test")
	}
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3), gamedatatest.WithHistoryPoints(4))
	withExtremeTimes(twin)
	var om bytes.Buffer
	n, err := Backfill(context.Background(), newClient(t, twin.URL), &om, BackfillConfig{Top: 2, Job: DefaultJob, Instance: DefaultInstance})
	if err != nil {
		t.Fatal(err)
	}
	// Three activity points, and the entry of each of the two packages.
	if n.Unstorable != 3+2 || n.Points == 0 || n.Entries == 0 {
		t.Errorf("backfill counted %+v, want 5 unstorable", n)
	}
	lines := strings.Split(strings.TrimSuffix(om.String(), "# EOF\n"), "\n")
	written := 0
	for _, l := range lines {
		if l != "" && !strings.HasPrefix(l, "#") {
			written++
			if f := strings.Fields(l); strings.HasPrefix(f[len(f)-1], "-") {
				t.Errorf("a sample before 1970 was written: %s", l)
			}
		}
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "backfill.om")
	if err := os.WriteFile(file, om.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", file, filepath.Join(dir, "data")).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	// promtool prints a row a block: ULID, min and max time, duration,
	// then the number of samples.
	stored := 0
	for _, m := range regexp.MustCompile(`(?m)^\w{26}\s+\S+\s+\S+\s+\S+\s+(\d+)\s`).FindAllStringSubmatch(string(out), -1) {
		k, _ := strconv.Atoi(m[1])
		stored += k
	}
	if stored != written {
		t.Errorf("promtool stored %d samples of the %d written:\n%s", stored, written, out)
	}
}
