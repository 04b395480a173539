package exporter

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/grafana"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// dashboardFile is the shipped dashboard of the exporter.
var dashboardFile = filepath.Join("..", "..", "..", "..", "deploy", "grafana", "dashboards", "gamedata-exporter.json")

// TestDashboardQueries runs every query of the exporter's dashboard, as
// Grafana would send it, against a real Prometheus scraping the exporter,
// and compares each answer with the twin's values and the exporter's
// own: every query answers, and every panel is checked.
func TestDashboardQueries(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed; apt-get install -y prometheus to run this end-to-end test")
	}
	dash, err := grafana.Load(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	twin := newTwin(t, gamedatatest.WithSize(30, 0, 3))
	game := firstWithPlayers(t, twin)
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{Kinds: []string{game.Kind}, Every: time.Hour})
	poll(t, e)

	scrapes := signalScrapes(e)
	target, stop := serve(t, e)
	defer stop()
	promAddr := freePort(t)
	exited := startPrometheus(t, bin, target, promAddr)
	// Four scrapes in full within the rates' 2 s window (Grafana's
	// $__rate_interval here), all after the poll.
	at := scrapedInFull(t, promAddr, scrapes, exited, 4, 2*time.Second)

	want := dashboardAnswers(t, e, twin, game, at)
	vars := map[string]string{"kind": game.Kind, "ident": game.Ident}
	r := grafana.Range{From: at.Add(-time.Hour), To: at}
	for _, p := range dash.Panels {
		for _, target := range p.Targets {
			q, err := grafana.Expand(target.Expr, grafana.Prometheus, r, vars)
			if err != nil {
				t.Fatal(err)
			}
			got := queryAt(t, promAddr, q, at)
			if slices.Contains([]string{"Top ${kind}s by players"}, p.Title) {
				checkTop(t, twin, game.Kind, got)
				continue
			}
			checkAnswer(t, p.Title, q, got, want, target.Expr)
		}
	}
	if len(want) > 0 {
		t.Errorf("queries expected but not in the dashboard: %v", want)
	}
	checkVariables(t, dash, promAddr, twin, game.Kind, r, vars, at)
}

// dashboardAnswers is the answer to each query of the dashboard at at,
// by its expression: its values, in any order, as the twin served them
// (game is the one the dashboard's variables name) and e exposes them;
// the top games are checked on their own (checkTop).
func dashboardAnswers(t *testing.T, e *Exporter, twin *gamedatatest.Server, game gamedatatest.Entry, at time.Time) map[string][]float64 {
	t.Helper()
	one := func(name string) float64 {
		t.Helper()
		s := samples(t, e, name)
		if len(s) != 1 {
			t.Fatalf("%s: %v", name, s)
		}
		for _, v := range s {
			return v
		}
		return 0
	}
	h, err := newClient(t, twin.URL).Activity.History(context.Background(), &gamedata.ActivityOptions{Range: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	latest := h.Points[len(h.Points)-1]
	platform, _ := latest.Players.Get()
	var lowerBound []float64
	if latest.PartialCoverage {
		lowerBound = []float64{platform}
	}
	return map[string][]float64{
		`gamedata_platform_players`: {platform},
		`gamedata_platform_players and on (job, instance) gamedata_platform_players_partial == 1`: lowerBound,
		`gamedata_package_players{kind="$kind", ident="$ident"}`:                                  {game.Players.Value},
		`gamedata_up`:        {1},
		`up{job="gamedata"}`: {1},
		`time() - gamedata_last_poll_success_timestamp_seconds`:             {float64(at.UnixMilli())/1000 - one("gamedata_last_poll_success_timestamp_seconds")},
		`gamedata_poll_duration_seconds`:                                    {one("gamedata_poll_duration_seconds")},
		`increase(gamedata_poll_errors_total[$__rate_interval])`:            {0}, // no poll between the scrapes
		`rate(gamedata_client_throttled_total[$__rate_interval])`:           {0},
		`rate(gamedata_client_requests_total[$__rate_interval])`:            {0},
		`rate(gamedata_client_cache_hits_total[$__rate_interval])`:          {0},
		`rate(gamedata_client_cache_revalidations_total[$__rate_interval])`: {0},
		`gamedata_client_rate_limit`:                                        {one("gamedata_client_rate_limit")},
	}
}

// checkAnswer compares got, the answer to q (expr expanded) of the panel
// titled title, with want's for expr, which it then takes out of want.
func checkAnswer(t *testing.T, title, q string, got []sample, want map[string][]float64, expr string) {
	t.Helper()
	w, ok := want[expr]
	if !ok {
		t.Errorf("panel %q: no expected answer for %s", title, expr)
		return
	}
	var values []float64
	for _, s := range got {
		values = append(values, s.value)
	}
	slices.Sort(values)
	if len(values) != len(w) || !allClose(values, w) {
		t.Errorf("panel %q: %s = %v, want %v", title, q, values, w)
	}
	delete(want, expr)
}

// checkVariables checks the dashboard's variables, each a
// label_values(metric, label), which lists the label's values among the
// metric's series: the kind polled, and the idents of its games that
// have players.
func checkVariables(t *testing.T, dash *grafana.Dashboard, addr string, twin *gamedatatest.Server, kind string, r grafana.Range, vars map[string]string, at time.Time) {
	t.Helper()
	labelValues := regexp.MustCompile(`^label_values\((.+), (\w+)\)$`)
	wantVars := map[string][]string{"kind": {kind}}
	for _, g := range twin.Catalog().Entries(url.Values{"kind": {kind}}) {
		if g.Players.Valid {
			wantVars["ident"] = append(wantVars["ident"], g.Ident)
		}
	}
	for _, v := range dash.QueryVariables() {
		m := labelValues.FindStringSubmatch(v.Query())
		if m == nil {
			t.Fatalf("variable %s: %q is not label_values(metric, label)", v.Name, v.Query())
		}
		q, _ := grafana.Expand(fmt.Sprintf("group by (%s) (%s)", m[2], m[1]), grafana.Prometheus, r, vars)
		var got []string
		for _, s := range queryAt(t, addr, q, at) {
			got = append(got, s.labels[m[2]])
		}
		slices.Sort(got)
		slices.Sort(wantVars[v.Name])
		if !slices.Equal(got, wantVars[v.Name]) {
			t.Errorf("variable %s: %v, want %v", v.Name, got, wantVars[v.Name])
		}
	}
}

// checkTop compares the top games panel's answer with the twin's ten
// games of kind with the most players, each with its title.
func checkTop(t *testing.T, twin *gamedatatest.Server, kind string, got []sample) {
	t.Helper()
	all := twin.Catalog().Entries(url.Values{"kind": {kind}, "sort": {"players"}})
	top := all[:10]
	slices.SortFunc(got, func(a, b sample) int { return cmp.Compare(b.value, a.value) })
	if len(got) != len(top) {
		t.Fatalf("top games: %v", got)
	}
	for i, g := range top {
		// Equal counts may come in either order, and topk picks any of
		// them: the title is checked against the game each sample names.
		j := slices.IndexFunc(all, func(e gamedatatest.Entry) bool { return e.Ident == got[i].labels["ident"] })
		if got[i].value != g.Players.Value || j < 0 || got[i].labels["title"] != gamedata.NewUntrusted(all[j].Name).String() {
			t.Errorf("top %d: %v, want %v players and the title of %s", i+1, got[i], g.Players.Value, got[i].labels["ident"])
		}
	}
}

func allClose(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-6*max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}
