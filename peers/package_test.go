package peers

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/peers/internal/oapi31"
	"github.com/gamedata-go/gamedata/peers/internal/ogen30"
	"github.com/gamedata-go/gamedata/peers/internal/ogen31"
)

// BenchmarkPackageGet reads one small package record (about 400 bytes),
// per request.
func BenchmarkPackageGet(b *testing.B) {
	twin := newTwin(b, benchPackages, benchPoints)
	kind, ident := smallRecord(twin.Catalog())
	packageComparison(b, twin, kind, ident).bench(b)
}

// BenchmarkPackageGetDefault reads game/1337 of the twin's default
// catalogue (gamedatatest.NewServer with no option), per request: the
// record a user meets first in the twin's examples.
func BenchmarkPackageGetDefault(b *testing.B) {
	twin := gamedatatest.NewServer()
	b.Cleanup(twin.Close)
	packageComparison(b, twin, gamedata.KindGame, "1337").bench(b)
}

// recordSummary is what the check compares of a package record.
type recordSummary struct {
	Kind, Ident, Title string
	Players            float64
	PlayersNull        bool
}

// smallRecord is the package of the twin whose record is nearest 400
// bytes, the first of them in the catalogue's order.
func smallRecord(cat *gamedatatest.Catalog) (kind, ident string) {
	var body []byte
	for _, e := range cat.Packages {
		b := cat.Package(e.Kind, e.Ident)
		if body == nil || abs(len(b)-400) < abs(len(body)-400) {
			kind, ident, body = e.Kind, e.Ident, b
		}
	}
	return kind, ident
}

func abs(n int) int { return max(n, -n) }

func packageComparison(tb testing.TB, twin *gamedatatest.Server, kind, ident string) comparison[recordSummary] {
	body := twin.Catalog().Package(kind, ident)
	url := twin.URL + "/api/packages/" + kind + "/" + ident
	var served map[string]any
	if err := json.Unmarshal(body, &served); err != nil {
		tb.Fatal(err)
	}
	sdk, sdkNoCache := sdkClients(tb, twin.URL)
	sdkCall := func(c *gamedata.Client) func(context.Context) (*gamedata.Package, error) {
		return func(ctx context.Context) (*gamedata.Package, error) { return c.Packages.Get(ctx, kind, ident) }
	}
	o31, o30, oapi := generatedClients(tb, twin.URL)
	floorHTTP, jsonHTTP := httpClient(), httpClient()
	return comparison[recordSummary]{
		floor: func(ctx context.Context) error { return drain(ctx, floorHTTP, url) },
		want:  mapRecord(served),
		peers: []peer[recordSummary]{
			newPeer("sdk", sdkCall(sdk), sdkRecord),
			newPeer("sdk-nocache", sdkCall(sdkNoCache), sdkRecord),
			newPeer("ogen-3.1", func(ctx context.Context) (*ogen31.Package, error) {
				res, err := o31.GetPackage(ctx, ogen31.GetPackageParams{Kind: kind, Ident: ident})
				if err != nil {
					return nil, err
				}
				if p, ok := res.(*ogen31.PackageHeaders); ok {
					return &p.Response, nil
				}
				return nil, errStatus(res)
			}, func(p *ogen31.Package) (recordSummary, error) {
				return recordSummary{Kind: p.Kind, Ident: p.Ident, Title: p.Title.Value, Players: p.Players.Value, PlayersNull: p.Players.Null}, nil
			}),
			newPeer("ogen-3.0", func(ctx context.Context) (*ogen30.Package, error) {
				res, err := o30.GetPackage(ctx, ogen30.GetPackageParams{Kind: kind, Ident: ident})
				if err != nil {
					return nil, err
				}
				if p, ok := res.(*ogen30.PackageHeaders); ok {
					return &p.Response, nil
				}
				return nil, errStatus(res)
			}, func(p *ogen30.Package) (recordSummary, error) {
				return recordSummary{Kind: p.Kind, Ident: p.Ident, Title: p.Title.Value, Players: p.Players.Value, PlayersNull: p.Players.Null}, nil
			}),
			newPeer("oapi-codegen", func(ctx context.Context) (*oapi31.Package, error) {
				res, err := oapi.GetPackageWithResponse(ctx, kind, ident, nil)
				if err != nil {
					return nil, err
				}
				if res.JSON200 == nil {
					return nil, errStatus(res.HTTPResponse.Status)
				}
				return res.JSON200, nil
			}, func(p *oapi31.Package) (recordSummary, error) {
				s := recordSummary{Kind: p.Kind, Ident: p.Ident, PlayersNull: p.Players == nil}
				if p.Title != nil {
					s.Title = *p.Title
				}
				if p.Players != nil {
					s.Players = float64(*p.Players)
				}
				return s, nil
			}),
			newPeer("net-http-encoding-json", func(ctx context.Context) (map[string]any, error) {
				var m map[string]any
				err := getJSON(ctx, jsonHTTP, url, &m)
				return m, err
			}, func(m map[string]any) (recordSummary, error) { return mapRecord(m), nil }),
		},
	}
}

func sdkRecord(p *gamedata.Package) (recordSummary, error) {
	title, _ := p.Text("title")
	players, ok := p.Metric("players").Get()
	return recordSummary{Kind: p.Kind, Ident: p.Ident, Title: title.Unsanitized(), Players: players, PlayersNull: !ok}, nil
}

// mapRecord summarizes a record decoded by encoding/json into a map.
func mapRecord(m map[string]any) recordSummary {
	s := recordSummary{}
	s.Kind, _ = m["kind"].(string)
	s.Ident, _ = m["ident"].(string)
	s.Title, _ = m["title"].(string)
	var ok bool
	s.Players, ok = m["players"].(float64)
	s.PlayersNull = !ok
	return s
}
