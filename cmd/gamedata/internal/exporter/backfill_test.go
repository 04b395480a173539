package exporter

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestBackfillIntoPrometheus writes the twin's history with Backfill,
// turns it into blocks with the real promtool, gives them to a real
// Prometheus that then scrapes the exporter, and reads back from
// Prometheus: a query_range over the week of activity gives the twin's
// values at their times, each package's history is there at its
// capturedAt times, and the exporter's scrapes continue the same series.
func TestBackfillIntoPrometheus(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed; apt-get install -y prometheus to run this end-to-end test")
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed; apt-get install -y prometheus to run this end-to-end test")
	}
	ctx := context.Background()
	twin := newTwin(t, gamedatatest.WithSize(30, 0, 3))
	c := newClient(t, twin.URL)

	// The exporter's address first: it is the instance label the
	// backfill writes.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target := ln.Addr().String()
	data, wrote := backfillBlocks(t, c, promtool, target)

	// Then the exporter, and Prometheus on the blocks, scraping it.
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{Kinds: []string{"game"}, Top: 3, Every: time.Hour})
	poll(t, e)
	scrapes := signalScrapes(e)
	sctx, cancel := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- e.Serve(sctx, ln) }()
	defer func() { cancel(); <-served }()
	promAddr := freePort(t)
	// A retention far longer than the default 15 days: the analytics
	// history goes back further than that.
	exited := startPrometheus(t, bin, target, promAddr, "--storage.tsdb.path="+data, "--storage.tsdb.retention.time=20y")
	now := scrapedInFull(t, promAddr, scrapes, exited, 1, e2eGuard)

	// The activity: a query_range over the history's week, stepped at
	// the points' spacing, gives each point's value at its time.
	h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	want, first, last := activityPoints(h)
	step := h.Points[1].Time.Sub(h.Points[0].Time)
	matched := checkRange(t, promAddr, "gamedata_platform_players", want, first, last, step)
	t.Logf("backfill wrote %s; query_range stepped %v met %d of the twin's %d points", wrote, step, matched, len(want))
	if matched < len(want)/2 {
		t.Errorf("query_range over the week stepped %v met %d of the twin's %d points", step, matched, len(want))
	}

	// Every point and every history entry is a raw sample at its time,
	// and the exporter's scrapes go on in the same series.
	checkRaw(t, promAddr, "gamedata_platform_players", want, now, target)
	for _, g := range twin.Catalog().Entries(url.Values{"kind": {"game"}, "sort": {"players"}})[:3] {
		r, err := c.Analytics.Package(ctx, g.Kind, g.Ident)
		if err != nil {
			t.Fatal(err)
		}
		history := map[int64]float64{}
		for _, e := range r.History {
			if v, ok := e.Metric("players").Get(); ok {
				history[e.CapturedAt.UnixMilli()] = v
			}
		}
		checkRaw(t, promAddr, fmt.Sprintf(`gamedata_package_players{kind=%q, ident=%q}`, g.Kind, g.Ident), history, now, target)
	}
}

// backfillBlocks writes the backfill of c's service for the exporter at
// target, the top 3 games, and turns it into blocks with the real
// promtool: it returns their directory, and what the backfill wrote.
func backfillBlocks(t *testing.T, c *gamedata.Client, promtool, target string) (string, string) {
	t.Helper()
	var om bytes.Buffer
	n, err := Backfill(context.Background(), c, &om, BackfillConfig{Kind: "game", Top: 3, Job: "gamedata", Instance: target})
	if err != nil {
		t.Fatal(err)
	}
	if n.Points == 0 || n.Packages != 3 || n.Entries == 0 {
		t.Fatalf("backfill wrote %+v", n)
	}
	dir := t.TempDir()
	file, data := filepath.Join(dir, "backfill.om"), filepath.Join(dir, "data")
	if err := os.WriteFile(file, om.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", file, data).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	return data, fmt.Sprintf("%+v (%d bytes)", n, om.Len())
}

// activityPoints are the players of h's points by their times in
// milliseconds, and the first and last of those times: a null point has
// no sample.
func activityPoints(h *gamedata.ActivityHistory) (want map[int64]float64, first, last time.Time) {
	want = map[int64]float64{}
	for _, p := range h.Points {
		v, ok := p.Players.Get()
		if !ok {
			continue
		}
		want[p.Time.UnixMilli()] = v
		if first.IsZero() || p.Time.Before(first) {
			first = p.Time
		}
		if p.Time.After(last) {
			last = p.Time
		}
	}
	return want, first, last
}

// checkRange runs a query_range of q from first to last, stepped at step,
// and checks that the one series it gives holds want's value at every
// time of want it steps on; it returns how many it stepped on.
func checkRange(t *testing.T, addr, q string, want map[int64]float64, first, last time.Time, step time.Duration) int {
	t.Helper()
	got := queryRange(t, addr, q, first, last, step)
	if len(got) != 1 {
		t.Fatalf("query_range: %d series, want 1: %v", len(got), got)
	}
	matched := 0
	for _, s := range got[0].samples {
		if v, ok := want[s.ms]; ok {
			matched++
			if v != s.v {
				t.Errorf("platform players at %s: %v, the twin served %v", time.UnixMilli(s.ms).UTC(), s.v, v)
			}
		}
	}
	return matched
}

// checkRaw reads every raw sample of the series q names, up to now: one
// series, holding want's samples at their times and, after them, the
// exporter's scraped samples, labelled with instance.
func checkRaw(t *testing.T, addr, q string, want map[int64]float64, now time.Time, instance string) {
	t.Helper()
	oldest := now
	for ms := range want {
		if at := time.UnixMilli(ms); at.Before(oldest) {
			oldest = at
		}
	}
	window := fmt.Sprintf("[%dh]", int(now.Sub(oldest).Hours())+24)
	got := queryRange(t, addr, q+window, now, now, 0)
	if len(got) != 1 || got[0].labels["instance"] != instance || got[0].labels["job"] != "gamedata" {
		t.Fatalf("%s: %v, want one series of instance %s", q, got, instance)
	}
	seen, live := 0, 0
	for _, s := range got[0].samples {
		if v, ok := want[s.ms]; ok {
			seen++
			if v != s.v {
				t.Errorf("%s at %s: %v, the twin served %v", q, time.UnixMilli(s.ms).UTC(), s.v, v)
			}
		} else if s.ms > now.Add(-time.Hour).UnixMilli() {
			live++
		}
	}
	if seen != len(want) || live == 0 {
		t.Errorf("%s: %d of the twin's %d samples, %d scraped", q, seen, len(want), live)
	}
}

// series is one series of a query's answer, with its samples.
type series struct {
	labels  map[string]string
	samples []struct {
		ms int64
		v  float64
	}
}

// queryRange asks Prometheus for q over [from, to] by step; a step of 0
// asks for an instant query at to, which for a range selector returns
// its raw samples.
func queryRange(t *testing.T, addr, q string, from, to time.Time, step time.Duration) []series {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ts := func(t time.Time) string { return strconv.FormatFloat(float64(t.UnixMilli())/1000, 'f', 3, 64) }
	v := url.Values{"query": {q}}
	path := "/api/v1/query"
	if step > 0 {
		path = "/api/v1/query_range"
		v.Set("start", ts(from))
		v.Set("end", ts(to))
		v.Set("step", strconv.FormatFloat(step.Seconds(), 'f', -1, 64))
	} else {
		v.Set("time", ts(to))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+path+"?"+v.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status, Error string
		Data          struct {
			Result []struct {
				Metric map[string]string
				Values [][2]any
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Status != "success" {
		t.Fatalf("%s %s: %s %v %s", path, q, resp.Status, err, body.Error)
	}
	var out []series
	for _, r := range body.Data.Result {
		s := series{labels: r.Metric}
		for _, pair := range r.Values {
			at, _ := pair[0].(float64)
			str, _ := pair[1].(string)
			f, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
			if err != nil {
				t.Fatalf("%s: value %v: %v", q, pair, err)
			}
			s.samples = append(s.samples, struct {
				ms int64
				v  float64
			}{int64(at*1000 + 0.5), f})
		}
		out = append(out, s)
	}
	return out
}

// topPackages gives the twin's top packages by players, whether the
// service sorts by players or not, and over more than a page.
func TestTopPackages(t *testing.T) {
	for _, tc := range append(topCases, topCase{"more than there are", false, 500}) {
		t.Run(tc.name, func(t *testing.T) {
			twin, base := topTwin(t, tc.ignoreSort)
			got, err := topPackages(context.Background(), newClient(t, base), gamedata.KindGame, tc.top)
			if err != nil {
				t.Fatal(err)
			}
			games := twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}, "sort": {"players"}})
			want := games[:min(tc.top, len(games))]
			if len(got) != len(want) {
				t.Fatalf("%d packages, want %d", len(got), len(want))
			}
			for i := range want {
				// Equal counts may come in either order: the counts are
				// compared, and each package must be the twin's.
				g, ok := got[i].Metric("players").Get()
				if w := want[i].Players; ok != w.Valid || (ok && g != w.Value) {
					t.Errorf("top %d: %s with %v players (known: %v), want %v", i+1, got[i].Ident, g, ok, w)
				}
			}
		})
	}
}
