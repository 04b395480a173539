package exporter

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// expectedFamily writes the exposition of fam with one sample for each
// entry of the catalogue that sends member as a number: what the twin
// holds, independently of how the exporter reads it.
func expectedFamily(t *testing.T, fam *family, entries []gamedatatest.Entry, member string) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", fam.name, fam.help, fam.name)
	for _, e := range entries {
		var m map[string]any
		if err := json.Unmarshal(e.JSON(), &m); err != nil {
			t.Fatal(err)
		}
		v, ok := m[member].(float64)
		if !ok {
			continue
		}
		if e.ID != "" {
			fmt.Fprintf(&b, "%s{id=%q} %v\n", fam.name, e.ID, v)
		} else {
			fmt.Fprintf(&b, "%s{ident=%q,kind=%q} %v\n", fam.name, e.Ident, e.Kind, v)
		}
	}
	return b.String()
}

// TestPollExportsEveryFamily polls every kind of a small twin and compares
// each family, its help, its labels and its samples with the catalogue.
func TestPollExportsEveryFamily(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 6, 3))
	cat := twin.Catalog()
	c := newClient(t, twin.URL)
	e, _, clock := newExporter(t, c, Config{Kinds: []string{"game", "mod", "tool", "server"}})
	poll(t, e)
	reg := e.Registry()

	for _, tc := range []struct {
		fam     *family
		entries []gamedatatest.Entry
		member  string
	}{
		{packagePlayers, cat.Packages, "players"},
		{packagePlayersPeak, cat.Packages, "playersPeak"},
		{memberFamily("rating", "rating"), cat.Packages, "rating"},
		{memberFamily("servers", "servers"), cat.Packages, "servers"},
		{serverPlayers, cat.Servers, "players"},
		{serverMaxPlayers, cat.Servers, "maxPlayers"},
	} {
		want := expectedFamily(t, tc.fam, tc.entries, tc.member)
		if err := testutil.GatherAndCompare(reg, strings.NewReader(want), tc.fam.name); err != nil {
			t.Errorf("%s: %v", tc.fam.name, err)
		}
	}

	var info strings.Builder
	fmt.Fprintf(&info, "# HELP %s %s\n# TYPE %s gauge\n", packageInfo.name, packageInfo.help, packageInfo.name)
	for _, p := range cat.Packages {
		fmt.Fprintf(&info, "%s{ident=%q,kind=%q,organization=%q,title=%q} 1\n", packageInfo.name,
			p.Ident, p.Kind, p.Organization, gamedata.NewUntrusted(p.Name).String())
	}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(info.String()), packageInfo.name); err != nil {
		t.Error(err)
	}

	history, err := newClient(t, twin.URL).Activity.History(context.Background(), &gamedata.ActivityOptions{Range: gamedata.Range7d})
	if err != nil {
		t.Fatal(err)
	}
	last := history.Points[len(history.Points)-1]
	players, ok := last.Players.Get()
	if !ok {
		t.Fatal("the twin's latest activity point is null: pick another seed")
	}
	stats := c.Stats()
	want := fmt.Sprintf(`# HELP gamedata_platform_players %s
# TYPE gamedata_platform_players gauge
gamedata_platform_players %v
# HELP gamedata_platform_players_partial %s
# TYPE gamedata_platform_players_partial gauge
gamedata_platform_players_partial %v
# HELP gamedata_up %s
# TYPE gamedata_up gauge
gamedata_up 1
# HELP gamedata_last_poll_success_timestamp_seconds %s
# TYPE gamedata_last_poll_success_timestamp_seconds gauge
gamedata_last_poll_success_timestamp_seconds %d
# HELP gamedata_poll_duration_seconds %s
# TYPE gamedata_poll_duration_seconds gauge
gamedata_poll_duration_seconds 0
# HELP gamedata_poll_errors_total %s
# TYPE gamedata_poll_errors_total counter
gamedata_poll_errors_total 0
# HELP gamedata_client_requests_total %s
# TYPE gamedata_client_requests_total counter
gamedata_client_requests_total %d
# HELP gamedata_client_throttled_total %s
# TYPE gamedata_client_throttled_total counter
gamedata_client_throttled_total 0
# HELP gamedata_client_cache_hits_total %s
# TYPE gamedata_client_cache_hits_total counter
gamedata_client_cache_hits_total 0
# HELP gamedata_client_cache_revalidations_total %s
# TYPE gamedata_client_cache_revalidations_total counter
gamedata_client_cache_revalidations_total 0
# HELP gamedata_client_rate_limit %s
# TYPE gamedata_client_rate_limit gauge
gamedata_client_rate_limit 1000
`, platformPlayers.help, players, platformPartial.help, flag(last.PartialCoverage), up.help, lastSuccess.help,
		clock.Now().Unix(), pollDuration.help, pollErrors.help, clientRequests.help, stats.Requests,
		clientThrottled.help, clientCacheHits.help, clientRevalidations.help, clientRateLimit.help)
	names := []string{"gamedata_platform_players", "gamedata_platform_players_partial", "gamedata_up",
		"gamedata_last_poll_success_timestamp_seconds", "gamedata_poll_duration_seconds", "gamedata_poll_errors_total",
		"gamedata_client_requests_total", "gamedata_client_throttled_total", "gamedata_client_cache_hits_total",
		"gamedata_client_cache_revalidations_total", "gamedata_client_rate_limit"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}

	// Every family gathered is one of the above, and lints clean.
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	compared := append(names, "gamedata_package_players", "gamedata_package_players_peak", "gamedata_package_rating",
		"gamedata_package_servers", "gamedata_server_players", "gamedata_server_max_players", "gamedata_package_info")
	for _, mf := range mfs {
		if !slices.Contains(compared, mf.GetName()) {
			t.Errorf("family %s is not compared by this test", mf.GetName())
		}
	}
	problems, err := testutil.GatherAndLint(reg)
	if err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// TestNullIsAbsent makes a package's players null in the twin: its
// players sample goes at the next poll, never becoming 0, and its other
// series stay.
func TestNullIsAbsent(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	poll(t, e)
	p := firstWithPlayers(t, twin)
	key := pkgKey(p.Kind, p.Ident)
	if _, ok := samples(t, e, "gamedata_package_players")[key]; !ok {
		t.Fatalf("%s: no players sample before the change", key)
	}
	null := math.NaN()
	if err := twin.UpdatePackage(p.Kind, p.Ident, gamedatatest.PackageUpdate{Players: &null}); err != nil {
		t.Fatal(err)
	}
	poll(t, e)
	if v, ok := samples(t, e, "gamedata_package_players")[key]; ok {
		t.Errorf("%s: players sample %v for a null, want none", key, v)
	}
	if len(samples(t, e, "gamedata_package_info")) != len(twin.Catalog().Packages) {
		t.Errorf("info series: want one for each of the %d packages", len(twin.Catalog().Packages))
	}
}

func firstWithPlayers(t *testing.T, twin *gamedatatest.Server) gamedatatest.Entry {
	t.Helper()
	for _, p := range twin.Catalog().Packages {
		if p.Players.Valid {
			return p
		}
	}
	t.Fatal("no package of the twin has players")
	return gamedatatest.Entry{}
}

// TestRemovedEntryLosesItsSeries removes a package from the twin: every
// series of it is gone after the next poll, and the others stay.
func TestRemovedEntryLosesItsSeries(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	poll(t, e)
	p := firstWithPlayers(t, twin)
	key := pkgKey(p.Kind, p.Ident)
	if err := twin.RemovePackage(p.Kind, p.Ident); err != nil {
		t.Fatal(err)
	}
	poll(t, e)
	for _, name := range []string{"gamedata_package_players", "gamedata_package_players_peak", "gamedata_package_rating", "gamedata_package_servers"} {
		if v, ok := samples(t, e, name)[key]; ok {
			t.Errorf("%s{%s} = %v after the package was removed", name, key, v)
		}
	}
	for k := range samples(t, e, "gamedata_package_info") {
		if strings.HasPrefix(k, "ident="+p.Ident+",kind="+p.Kind+",") {
			t.Errorf("info %s after the package was removed", k)
		}
	}
	if got, want := len(samples(t, e, "gamedata_package_info")), len(twin.Catalog().Packages); got != want {
		t.Errorf("%d info series, want %d", got, want)
	}
}

// TestScrapeSendsNoRequest scrapes between polls: the twin sees no
// request.
func TestScrapeSendsNoRequest(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(30, 10, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	poll(t, e)
	before := len(twin.Requests())
	for _, path := range []string{"/metrics", "/metrics", "/healthz", "/"} {
		if code, _ := scrape(t, e, path); code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
	}
	if got := requestsSince(twin, before); len(got) > 0 {
		t.Errorf("scrapes sent %v", got)
	}
}

// TestRequestsPerPoll counts the requests of a poll of the twin's default
// catalogue: a directory request for each 100 entries and one for the
// activity, all answered 304 when nothing changed.
func TestRequestsPerPoll(t *testing.T) {
	twin := newTwin(t)
	n := len(twin.Catalog().Packages)
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	pages := (n + pageSize - 1) / pageSize
	for i, status := range []string{"OK", "Not Modified", "Not Modified"} {
		before := len(twin.Requests())
		poll(t, e)
		var want []string
		for range pages {
			want = append(want, status+" /api/dashboard")
		}
		want = append(want, status+" /api/activity-history")
		slices.Sort(want)
		if got := requestsSince(twin, before); !slices.Equal(got, want) {
			t.Errorf("poll %d of %d entries: requests %v, want %v", i+1, n, got, want)
		}
		t.Logf("poll %d: %d requests for %d entries", i+1, len(want), n)
	}
}

// TestTop keeps the top entries by players, with as few pages as they
// need, whether the service sorts by players or not.
func TestTop(t *testing.T) {
	for _, tc := range topCases {
		t.Run(tc.name, func(t *testing.T) {
			twin, base := topTwin(t, tc.ignoreSort)
			e, logs, _ := newExporter(t, newClient(t, base), Config{Kinds: []string{gamedata.KindGame}, Top: tc.top})
			for i := range 2 {
				before := len(twin.Requests())
				poll(t, e)
				games := twin.Catalog().Entries(map[string][]string{"kind": {gamedata.KindGame}, "sort": {"players"}})
				got := samples(t, e, "gamedata_package_info")
				if len(got) != tc.top {
					t.Fatalf("%d packages exported, want %d", len(got), tc.top)
				}
				for _, g := range games[:tc.top] {
					if _, ok := got["ident="+g.Ident+",kind=game,organization="+g.Organization+",title="+gamedata.NewUntrusted(g.Name).String()]; !ok {
						t.Errorf("top package %s (%v players) not exported", g.Ident, g.Players)
					}
				}
				wantDir := (tc.top + pageSize - 1) / pageSize
				if tc.ignoreSort {
					// The first poll's first page shows the sort was
					// ignored; then every poll walks the whole slice.
					wantDir = (len(games) + pageSize - 1) / pageSize
					if i == 0 {
						wantDir++
					}
				}
				if got := len(twin.Requests()) - before; got != wantDir+1 {
					t.Errorf("poll %d: %d requests, want %d for the directory and 1 for the activity", i+1, got, wantDir)
				}
			}
			if warned := strings.Contains(logs.String(), "did not sort the directory by players"); warned != tc.ignoreSort {
				t.Errorf("warned that the sort was ignored: %v, want %v; log:\n%s", warned, tc.ignoreSort, logs)
			}
		})
	}
}

// TestSeriesCap stops at --max-series with whole entries and one log line
// that says so.
func TestSeriesCap(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(300, 0, 10))
	e, logs, _ := newExporter(t, newClient(t, twin.URL), Config{MaxSeries: 40})
	for range 2 {
		poll(t, e)
	}
	total := 0
	for _, name := range []string{"gamedata_package_players", "gamedata_package_players_peak", "gamedata_package_rating", "gamedata_package_servers", "gamedata_package_info"} {
		total += len(samples(t, e, name))
	}
	if total > 40 || total < 35 {
		t.Errorf("%d package series, want at most 40 and no fewer than a whole entry below", total)
	}
	if got := strings.Count(logs.String(), "--max-series 40 reached"); got != 1 {
		t.Errorf("%d log lines about the cap over two polls, want 1; log:\n%s", got, logs)
	}
	if got := len(twin.Requests()); got > 2*3 {
		t.Errorf("%d requests for two polls stopped at the cap, want at most 6", got)
	}
}

// TestFailedPoll fails the directory: its series stay, with gamedata_up 0
// and an error counted, for staleIntervals intervals, and then go;
// /healthz follows.
func TestFailedPoll(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, clock := newExporter(t, newClient(t, twin.URL), Config{})
	if code, _ := scrape(t, e, "/healthz"); code != http.StatusServiceUnavailable {
		t.Errorf("/healthz before a poll: %d, want 503", code)
	}
	poll(t, e)
	if code, _ := scrape(t, e, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz after a poll: %d, want 200", code)
	}
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault500},
		Match: func(r *http.Request) bool { return r.URL.Path == "/api/dashboard" }})
	n := len(twin.Catalog().Packages)

	for _, step := range []struct {
		advance time.Duration
		series  int
		healthy int
	}{
		{time.Minute, n, http.StatusOK},
		{2 * time.Minute, n, http.StatusOK},
		{time.Minute, 0, http.StatusServiceUnavailable},
	} {
		clock.Advance(step.advance)
		if err := e.Poll(context.Background()); err == nil {
			t.Fatal("a poll whose directory fails: no error")
		}
		if got := len(samples(t, e, "gamedata_package_info")); got != step.series {
			t.Errorf("after %v: %d packages exported, want %d", step.advance, got, step.series)
		}
		if got := samples(t, e, "gamedata_up")[""]; got != 0 {
			t.Errorf("gamedata_up %v after a failed poll", got)
		}
		if _, ok := samples(t, e, "gamedata_platform_players_partial")[""]; !ok {
			t.Error("the activity, which did not fail, is not exported")
		}
		if code, _ := scrape(t, e, "/healthz"); code != step.healthy {
			t.Errorf("/healthz: %d, want %d", code, step.healthy)
		}
	}
	if got := samples(t, e, "gamedata_poll_errors_total")[""]; got != 3 {
		t.Errorf("gamedata_poll_errors_total %v, want 3", got)
	}
}

// TestPollDeadline serves every body of the twin half sent and then
// stalled, a trickle that never ends: each poll fails at its deadline, one
// interval after it starts (the fake clock moved past it once the stalled
// request has arrived), with gamedata_up 0, and what the last good poll
// read is exported until it is more than three intervals old, then
// dropped, as /healthz turns 503.
func TestPollDeadline(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	// Without a cache every poll asks for whole bodies: a 304, which has
	// none, would come through the stall whole.
	e, logs, clock := newExporter(t, newClient(t, twin.URL, gamedata.WithCache(nil)), Config{Kinds: []string{"game"}})
	poll(t, e)
	n := len(samples(t, e, "gamedata_package_info"))
	if n == 0 {
		t.Fatal("no package exported by the good poll")
	}
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallBody}})
	ctx := guard(t)
	clock.Advance(time.Minute) // the next tick; each poll below starts as the last one's deadline passes

	for i, want := range []struct {
		series  int
		healthy int
	}{
		{n, http.StatusOK},
		{n, http.StatusOK},
		{0, http.StatusServiceUnavailable}, // it ends four intervals after the good poll started
	} {
		sent := len(twin.Requests())
		done := make(chan error, 1)
		go func() { done <- e.Poll(ctx) }()
		if err := twin.WaitRequests(ctx, sent+1); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Minute)
		err := <-done
		if err == nil || !strings.Contains(err.Error(), "no answer within the poll's deadline, 1m0s (--every)") {
			t.Fatalf("poll %d of a stalled service: %v", i+1, err)
		}
		if got := len(samples(t, e, "gamedata_package_info")); got != want.series {
			t.Errorf("after stalled poll %d: %d packages exported, want %d", i+1, got, want.series)
		}
		if got := samples(t, e, "gamedata_up")[""]; got != 0 {
			t.Errorf("gamedata_up %v after stalled poll %d", got, i+1)
		}
		if code, _ := scrape(t, e, "/healthz"); code != want.healthy {
			t.Errorf("/healthz after stalled poll %d: %d, want %d", i+1, code, want.healthy)
		}
		if got := len(twin.Requests()) - sent; got != 1 {
			t.Errorf("stalled poll %d sent %d requests; after the deadline the other sources fail unasked", i+1, got)
		}
	}
	if !strings.Contains(logs.String(), "the service is slow or stalled") {
		t.Errorf("the log does not say why the polls failed:\n%s", logs)
	}
}

// TestNamedRecords polls packages and servers named by the user, without
// the directory; one that the service does not know has no series.
func TestNamedRecords(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 6, 3))
	cat := twin.Catalog()
	p := cat.Packages[0]
	i := slices.IndexFunc(cat.Servers, func(s gamedatatest.Entry) bool { return s.Players.Valid })
	if i < 0 {
		t.Fatal("no server of the twin has players")
	}
	s := cat.Servers[i]
	e, logs, _ := newExporter(t, newClient(t, twin.URL), Config{
		Packages: []gamedata.PackageRef{{Kind: p.Kind, Ident: p.Ident}, {Kind: "game", Ident: "no-such-game"}},
		Servers:  []string{s.ID},
	})
	before := len(twin.Requests())
	if err := e.Poll(context.Background()); err != nil {
		t.Fatalf("a poll with a package the service does not know: %v", err)
	}
	want := []string{"Not Found /api/packages/game/no-such-game", "OK /api/activity-history",
		"OK /api/packages/" + p.Kind + "/" + p.Ident, "OK /api/servers/" + s.ID}
	slices.Sort(want)
	if got := requestsSince(twin, before); !slices.Equal(got, want) {
		t.Errorf("requests %v, want %v", got, want)
	}
	if got := len(samples(t, e, "gamedata_package_info")); got != 1 {
		t.Errorf("%d packages exported, want 1", got)
	}
	if got := samples(t, e, "gamedata_server_players"); len(got) != 1 || got["id="+s.ID] != s.Players.Value {
		t.Errorf("server players %v, want %s: %v", got, s.ID, s.Players.Value)
	}
	poll(t, e)
	if got := strings.Count(logs.String(), "does not know package game/no-such-game"); got != 1 {
		t.Errorf("%d log lines about the unknown package over two polls, want 1:\n%s", got, logs)
	}
}

// topCase is a case of a test of the top N packages: N, and whether the
// service ignores the sort by players.
type topCase struct {
	name       string
	ignoreSort bool
	top        int
}

// topCases are the cases every test of a top N runs.
var topCases = []topCase{
	{"sorted", false, 5},
	{"sorted, over a page", false, 130},
	{"the service ignores the sort", true, 5},
}

// topTwin is a twin of 400 packages, and the URL a client asks it at:
// behind a server that drops the sort when ignoreSort.
func topTwin(t *testing.T, ignoreSort bool) (*gamedatatest.Server, string) {
	t.Helper()
	twin := newTwin(t, gamedatatest.WithSize(400, 0, 10))
	if ignoreSort {
		return twin, newSortIgnoringServer(t, twin).URL
	}
	return twin, twin.URL
}

// newSortIgnoringServer serves the twin as a service that ignores the
// sort parameter, which the twin itself never does.
func newSortIgnoringServer(t *testing.T, twin *gamedatatest.Server) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		q.Del("sort")
		r.URL.RawQuery = q.Encode()
		twin.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}
