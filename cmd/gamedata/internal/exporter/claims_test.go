package exporter

import (
	"bytes"
	"context"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestBackfillChoosesAsTheExporter gives the twin a package whose ident
// sanitizes to that of its top game (a zero-width space after it), with
// another title, and reads the catalogue through the exporter and through
// backfill, choosing the packages either way: both give the same label
// sets, one package under those labels, and both leave the same other out.
func TestBackfillChoosesAsTheExporter(t *testing.T) {
	twin := newTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}, "sort": {"players"}})
	orig := gamedata.PackageRef{Kind: gamedata.KindGame, Ident: games[0].Ident}
	twin2 := gamedata.PackageRef{Kind: gamedata.KindGame, Ident: orig.Ident + "\u200b"}
	if err := twin.AddPackage(twin2.Kind, twin2.Ident, "Not "+games[0].Name); err != nil {
		t.Fatal(err)
	}
	all := len(games) + 1
	// Under the players sort, the one of the two that comes later is
	// left out.
	byPlayers := twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}, "sort": {"players"}})
	later := orig
	if slices.IndexFunc(byPlayers, func(e gamedatatest.Entry) bool { return e.Ident == twin2.Ident }) >
		slices.IndexFunc(byPlayers, func(e gamedatatest.Entry) bool { return e.Ident == orig.Ident }) {
		later = twin2
	}

	for _, tc := range []struct {
		name     string
		packages []gamedata.PackageRef
		top      int
		leftOut  gamedata.PackageRef
	}{
		{"named, the look-alike first", []gamedata.PackageRef{twin2, orig}, 0, orig},
		{"named, the game first", []gamedata.PackageRef{orig, twin2}, 0, twin2},
		{"named, then the top", []gamedata.PackageRef{twin2}, all, orig},
		{"the top", nil, all, later},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var kinds []string
			if tc.top > 0 {
				kinds = []string{gamedata.KindGame}
			}
			e, logs, _ := newExporter(t, newClient(t, twin.URL), Config{Kinds: kinds, Top: tc.top, Packages: tc.packages})
			poll(t, e)
			exported := slices.Sorted(maps.Keys(samples(t, e, "gamedata_package_info")))

			var om bytes.Buffer
			n, err := Backfill(context.Background(), newClient(t, twin.URL), &om,
				BackfillConfig{Kind: gamedata.KindGame, Top: tc.top, Packages: tc.packages, Job: DefaultJob, Instance: DefaultInstance})
			if err != nil {
				t.Fatal(err)
			}
			backfilled := infoLabels(t, om.String())
			if !slices.Equal(backfilled, exported) {
				t.Errorf("backfill's info label sets:\n%s\nthe exporter's:\n%s", strings.Join(backfilled, "\n"), strings.Join(exported, "\n"))
			}
			want := "package game/" + labelValue(tc.leftOut.Ident)
			if !slices.Equal(n.LeftOut, []string{want}) {
				t.Errorf("backfill left out %q, want %q", n.LeftOut, want)
			}
			if !strings.Contains(logs.String(), `examples="`+want+`"`) {
				t.Errorf("the exporter's log does not name %q:\n%s", want, logs)
			}
		})
	}
}

// infoLabels are the label sets of the gamedata_package_info samples of
// an OpenMetrics text, without job and instance, written as samples
// writes them, each once and in order.
func infoLabels(t *testing.T, om string) []string {
	t.Helper()
	label := regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)
	seen := map[string]bool{}
	for line := range strings.Lines(om) {
		rest, ok := strings.CutPrefix(line, "gamedata_package_info{")
		if !ok {
			continue
		}
		var parts []string
		for _, m := range label.FindAllStringSubmatch(rest[:strings.LastIndex(rest, "}")], -1) {
			v, err := strconv.Unquote(`"` + m[2] + `"`)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if m[1] != "job" && m[1] != "instance" {
				parts = append(parts, m[1]+"="+v)
			}
		}
		slices.Sort(parts)
		seen[strings.Join(parts, ",")] = true
	}
	return slices.Sorted(maps.Keys(seen))
}
