package exporter

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestMemberSuffix(t *testing.T) {
	for _, tc := range []struct {
		member, want string
	}{
		{"rating", "rating"},
		{"playersPeak", "players_peak"},
		{"maxPlayers", "max_players"},
		{"HTTPServer", "http_server"},
		{"maxHTTPPlayers", "max_http_players"},
		{"players24h", "players24h"},
		{"avgPlayers7D", "avg_players7_d"},
		{"max-players", "max_players"},
		{"a.b c", "a_b_c"},
		{"__x__", "x"},
		{"123", "123"},
		{"ünïcode", "n_code"},
		{"\x1b[31mred\x1b[0m", "31mred_0m"},
		{"ratingCount", "rating_count_value"},
		{"total", "total_value"},
		{"sum", "sum_value"},
		{"le_bucket", "le_bucket_value"},
		{"createdAt", "created_at"},
		{"created", "created_value"},
		{"", ""},
		{"---", ""},
		{"日本", ""},
		{strings.Repeat("a", maxMemberName), strings.Repeat("a", maxMemberName)},
		{strings.Repeat("a", maxMemberName+1), ""},
		{strings.Repeat("é", 1000), ""},
	} {
		got, ok := memberSuffix(tc.member)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("memberSuffix(%q) = %q, %v; want %q", tc.member, got, ok, tc.want)
		}
	}
}

func TestLabelValue(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"Neon Harbor", "Neon Harbor"},
		{"\x1b]0;owned\x07Neon\x1b[2J", "Neon"},
		{"a\u202eb\u200bc", "abc"},
		{"line\nbreak", "line break"},
		{"bad \xff utf-8", "bad \ufffd utf-8"},
		{strings.Repeat("x", maxLabelRunes), strings.Repeat("x", maxLabelRunes)},
		{strings.Repeat("é", maxLabelRunes+1), strings.Repeat("é", maxLabelRunes) + "…"},
	} {
		got := labelValue(tc.in)
		if got != tc.want {
			t.Errorf("labelValue(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("labelValue(%q) is not valid UTF-8", tc.in)
		}
	}
}

// hostileDirectory is a service whose entries have member names and
// idents the twin never sends: names that collide once made metric names
// or sanitized, names with nothing usable or too long, names of the
// exporter's own families, and escapes in an organization and a server
// id.
var hostileDirectory = `{"items": [
 {"kind": "game", "ident": "a\u200bb", "players": 1, "max-players": 10, "maxPlayers": 20, "max_players": 30,
  "Players": 40, "players_peak": 50, "info": 60, "---": 70, "count": 80, "\u001b[31mscore": 90, "title": "\u001b[2JA\u202e"},
 {"kind": "game", "ident": "ab", "players": 2},
 {"kind": "game", "ident": "c", "players": null, "playersPeak": 5, "rating": "high",
  "organization": "\u202eEvil\u001b]8;;http://x/\u0007Org", "` + strings.Repeat("long", 75) + `": 1},
 {"kind": 7, "ident": 8, "players": 3},
 {"id": "s\u001b[2J1\u200b", "players": 4, "maxPlayers": 8}
], "pagination": {"hasNext": false}}`

// TestHostileNames serves entries with member names and idents that
// collide or carry escapes: every metric name is derived safely, the
// first of colliding names wins, the rest are logged, and the exposition
// lints clean.
func TestHostileNames(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/dashboard":
			w.Write([]byte(hostileDirectory))
		default:
			w.Write([]byte(`{"points": []}`))
		}
	}))
	t.Cleanup(srv.Close)
	e, logs, _ := newExporter(t, newClient(t, srv.URL), Config{})
	poll(t, e)

	for _, tc := range []struct {
		name string
		want map[string]float64
	}{
		{"gamedata_package_players", map[string]float64{"ident=ab,kind=game": 1, "ident=8,kind=7": 3}},
		{"gamedata_package_players_peak", map[string]float64{"ident=c,kind=game": 5}},
		{"gamedata_package_max_players", map[string]float64{"ident=ab,kind=game": 10}}, // "max-players" sorts first
		{"gamedata_package_count_value", map[string]float64{"ident=ab,kind=game": 80}},
		{"gamedata_package_31mscore", map[string]float64{"ident=ab,kind=game": 90}},
		{"gamedata_package_rating", map[string]float64{}}, // a string is not a number
		{"gamedata_server_players", map[string]float64{"id=s1": 4}},
		{"gamedata_server_max_players", map[string]float64{"id=s1": 8}},
		{"gamedata_package_info", map[string]float64{
			"ident=ab,kind=game,organization=,title=A":      1,
			"ident=c,kind=game,organization=EvilOrg,title=": 1,
			"ident=8,kind=7,organization=,title=":           1,
		}},
	} {
		got := samples(t, e, tc.name)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s{%s} = %v, want %v (all: %v)", tc.name, k, got[k], v, got)
			}
		}
	}
	mfs, err := e.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mf := range mfs {
		names = append(names, mf.GetName())
	}
	if got := strings.Join(names, " "); strings.Contains(got, "gamedata_package_info_") || strings.Contains(got, "gamedata_package_\x1b") {
		t.Errorf("families: %s", got)
	}
	problems, err := testutil.GatherAndLint(e.Registry())
	if err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
	for _, want := range []string{
		"are another entry's are not exported", "entries=1", `examples="package game/ab"`,
		"numeric members with no metric name of their own", "members=7", strings.Repeat("long", 32) + "…",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log has no %q:\n%s", want, logs)
		}
	}
}
