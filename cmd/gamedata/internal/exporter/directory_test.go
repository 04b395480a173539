package exporter

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestUnknownKind asks the twin for a kind it does not list, which it
// normalizes to its default directory as SERVICE.md says: every way of
// walking (all of it, --top sorted, --top scanned) fails the poll with a
// *KindError naming the flag, exports no package, and ends Serve, after
// its shutdown, with that error. A kind the twin lists polls as before.
func TestUnknownKind(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 6, 3))
	unsorted := newSortIgnoringServer(t, twin)
	for _, tc := range []struct {
		name    string
		url     string
		kinds   []string
		top     int
		refused bool
	}{
		{"all", twin.URL, []string{"gmae"}, 0, true},
		{"top sorted", twin.URL, []string{"gmae"}, 3, true},
		{"top scanned", unsorted.URL, []string{"gmae"}, 3, true},
		{"listed", twin.URL, []string{"game", "server"}, 0, false},
		{"listed top", twin.URL, []string{"mod"}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _, _ := newExporter(t, newClient(t, tc.url), Config{Kinds: tc.kinds, Top: tc.top})
			err := e.Poll(context.Background())
			var kindErr *KindError
			if !tc.refused {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.As(err, &kindErr) || kindErr.Asked != "gmae" ||
				!strings.Contains(err.Error(), `--kind "gmae": the service does not list that kind`) {
				t.Fatalf("a poll of --kind gmae: %v, want a *KindError", err)
			}
			if got := len(samples(t, e, "gamedata_package_info")); got != 0 {
				t.Errorf("%d packages exported from a kind the service does not list", got)
			}
			if got := samples(t, e, "gamedata_up")[""]; got != 0 {
				t.Errorf("gamedata_up %v", got)
			}

			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Serve(guard(t), ln); !errors.As(err, &kindErr) {
				t.Errorf("Serve of --kind gmae: %v, want a *KindError", err)
			}
		})
	}
}
