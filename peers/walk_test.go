package peers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/peers/internal/oapi31"
	"github.com/gamedata-go/gamedata/peers/internal/ogen30"
	"github.com/gamedata-go/gamedata/peers/internal/ogen31"
)

// BenchmarkWalk walks the whole dashboard, 2,000 packages in 20 pages of
// 100, end to end: every page requested, every entry decoded and visited.
func BenchmarkWalk(b *testing.B) { walkComparison(b, newTwin(b, benchPackages, benchPoints)).bench(b) }

// walkPageSize is the page size of the walk, the largest the service takes.
const walkPageSize = 100

// walkSummary is what the check compares of a walk.
type walkSummary struct {
	Entries         int
	First, Last     string // idents
	LastTitle       string
	LastPlayers     float64
	LastPlayersNull bool
}

// walked is what a walk kept: how many entries it visited, the first and
// the last.
type walked[E any] struct {
	n           int
	first, last E
}

func (w *walked[E]) visit(e E) {
	if w.n == 0 {
		w.first = e
	}
	w.last = e
	w.n++
}

func walkComparison(tb testing.TB, twin *gamedatatest.Server) comparison[walkSummary] {
	entries := twin.Catalog().Entries(url.Values{"pageSize": {strconv.Itoa(walkPageSize)}})
	if len(entries) == 0 {
		tb.Fatal("the twin has an empty dashboard")
	}
	first, last := entries[0], entries[len(entries)-1]
	want := walkSummary{
		Entries: len(entries), First: first.Ident, Last: last.Ident, LastTitle: last.Name,
		LastPlayers: last.Players.Value, LastPlayersNull: !last.Players.Valid,
	}
	pages := (len(entries) + walkPageSize - 1) / walkPageSize
	pageURL := func(page int) string {
		return twin.URL + "/api/dashboard?page=" + strconv.Itoa(page) + "&pageSize=" + strconv.Itoa(walkPageSize)
	}

	sdk, sdkNoCache := sdkClients(tb, twin.URL)
	o31, o30, oapi := generatedClients(tb, twin.URL)
	floorHTTP := httpClient()
	return comparison[walkSummary]{
		floor: func(ctx context.Context) error {
			for page := 1; page <= pages; page++ {
				if err := drain(ctx, floorHTTP, pageURL(page)); err != nil {
					return err
				}
			}
			return nil
		},
		want: want,
		peers: []peer[walkSummary]{
			newPeer("sdk", sdkWalk(sdk), sdkWalked),
			newPeer("sdk-nocache", sdkWalk(sdkNoCache), sdkWalked),
			newPeer("ogen-3.1", ogen31Walk(o31), ogen31Walked),
			newPeer("ogen-3.0", ogen30Walk(o30), ogen30Walked),
			newPeer("oapi-codegen", oapiWalk(oapi), oapiWalked),
			newPeer("net-http-encoding-json", jsonWalk(httpClient(), pageURL), mapWalked),
		},
	}
}

func sdkWalk(c *gamedata.Client) func(context.Context) (*walked[gamedata.DashboardEntry], error) {
	return func(ctx context.Context) (*walked[gamedata.DashboardEntry], error) {
		var w walked[gamedata.DashboardEntry]
		for e, err := range c.Dashboard.All(ctx, &gamedata.DashboardOptions{ListOptions: gamedata.ListOptions{PageSize: walkPageSize}}, nil) {
			if err != nil {
				return nil, err
			}
			w.visit(e)
		}
		return &w, nil
	}
}

func ogen31Walk(c *ogen31.Client) func(context.Context) (*walked[ogen31.PackageEntry], error) {
	return func(ctx context.Context) (*walked[ogen31.PackageEntry], error) {
		var w walked[ogen31.PackageEntry]
		for page, more := 1, true; more; page++ {
			res, err := c.ListDashboard(ctx, ogen31.ListDashboardParams{Page: ogen31.NewOptInt(page), PageSize: ogen31.NewOptInt(walkPageSize)})
			if err != nil {
				return nil, err
			}
			p, ok := res.(*ogen31.DashboardPageHeaders)
			if !ok {
				return nil, errStatus(res)
			}
			for _, item := range p.Response.Items {
				e, ok := item.GetPackageEntry()
				if !ok {
					return nil, fmt.Errorf("page %d: an entry of type %s", page, item.Type)
				}
				w.visit(e)
			}
			more = p.Response.Pagination.HasNext
		}
		return &w, nil
	}
}

func ogen31Walked(w *walked[ogen31.PackageEntry]) (walkSummary, error) {
	return walkSummary{
		Entries: w.n, First: w.first.Ident, Last: w.last.Ident, LastTitle: w.last.Title.Value,
		LastPlayers: w.last.Players.Value, LastPlayersNull: w.last.Players.Null,
	}, nil
}

func ogen30Walk(c *ogen30.Client) func(context.Context) (*walked[ogen30.PackageEntry], error) {
	return func(ctx context.Context) (*walked[ogen30.PackageEntry], error) {
		var w walked[ogen30.PackageEntry]
		for page, more := 1, true; more; page++ {
			res, err := c.ListDashboard(ctx, ogen30.ListDashboardParams{Page: ogen30.NewOptInt(page), PageSize: ogen30.NewOptInt(walkPageSize)})
			if err != nil {
				return nil, err
			}
			p, ok := res.(*ogen30.DashboardPageHeaders)
			if !ok {
				return nil, errStatus(res)
			}
			for _, item := range p.Response.Items {
				e, ok := item.GetPackageEntry()
				if !ok {
					return nil, fmt.Errorf("page %d: an entry of type %s", page, item.Type)
				}
				w.visit(e)
			}
			more = p.Response.Pagination.HasNext
		}
		return &w, nil
	}
}

func ogen30Walked(w *walked[ogen30.PackageEntry]) (walkSummary, error) {
	return walkSummary{
		Entries: w.n, First: w.first.Ident, Last: w.last.Ident, LastTitle: w.last.Title.Value,
		LastPlayers: w.last.Players.Value, LastPlayersNull: w.last.Players.Null,
	}, nil
}

// oapiWalk reads each entry of the dashboard's oneOf, which oapi-codegen
// keeps as raw JSON, with a second decoding: AsPackageEntry.
func oapiWalk(c *oapi31.ClientWithResponses) func(context.Context) (*walked[oapi31.PackageEntry], error) {
	return func(ctx context.Context) (*walked[oapi31.PackageEntry], error) {
		var w walked[oapi31.PackageEntry]
		size := walkPageSize
		for page, more := 1, true; more; page++ {
			res, err := c.ListDashboardWithResponse(ctx, &oapi31.ListDashboardParams{Page: &page, PageSize: &size})
			if err != nil {
				return nil, err
			}
			if res.JSON200 == nil {
				return nil, errStatus(res.HTTPResponse.Status)
			}
			for _, item := range res.JSON200.Items {
				e, err := item.AsPackageEntry()
				if err != nil {
					return nil, err
				}
				w.visit(e)
			}
			more = res.JSON200.Pagination.HasNext
		}
		return &w, nil
	}
}

func oapiWalked(w *walked[oapi31.PackageEntry]) (walkSummary, error) {
	s := walkSummary{Entries: w.n, First: w.first.Ident, Last: w.last.Ident, LastPlayersNull: w.last.Players == nil}
	if w.last.Title != nil {
		s.LastTitle = *w.last.Title
	}
	if w.last.Players != nil {
		s.LastPlayers = float64(*w.last.Players)
	}
	return s, nil
}

// jsonWalk reads the pages pageURL names with net/http and encoding/json.
func jsonWalk(hc *http.Client, pageURL func(page int) string) func(context.Context) (*walked[map[string]any], error) {
	return func(ctx context.Context) (*walked[map[string]any], error) {
		var w walked[map[string]any]
		for page, more := 1, true; more; page++ {
			var p rawPage
			if err := getJSON(ctx, hc, pageURL(page), &p); err != nil {
				return nil, err
			}
			for _, e := range p.Items {
				w.visit(e)
			}
			more = p.Pagination.HasNext
		}
		return &w, nil
	}
}

func mapWalked(w *walked[map[string]any]) (walkSummary, error) {
	first, last := mapRecord(w.first), mapRecord(w.last)
	return walkSummary{
		Entries: w.n, First: first.Ident, Last: last.Ident, LastTitle: last.Title,
		LastPlayers: last.Players, LastPlayersNull: last.PlayersNull,
	}, nil
}

// rawPage is the natural encoding/json shape of a dashboard page: its
// entries, packages or servers, as maps.
type rawPage struct {
	Items      []map[string]any `json:"items"`
	Pagination struct {
		HasNext bool `json:"hasNext"`
	} `json:"pagination"`
}

func sdkWalked(w *walked[gamedata.DashboardEntry]) (walkSummary, error) {
	if w.n == 0 {
		return walkSummary{}, errors.New("no entries")
	}
	title, _ := w.last.Text("title")
	players, ok := w.last.Metric("players").Get()
	return walkSummary{
		Entries: w.n, First: w.first.Ident, Last: w.last.Ident, LastTitle: title.Unsanitized(),
		LastPlayers: players, LastPlayersNull: !ok,
	}, nil
}
