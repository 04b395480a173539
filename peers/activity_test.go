package peers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/peers/internal/oapi31"
	"github.com/gamedata-go/gamedata/peers/internal/ogen30"
	"github.com/gamedata-go/gamedata/peers/internal/ogen31"
	"github.com/go-faster/jx"
)

// BenchmarkActivityHistory reads the activity history, 100,000 points,
// end to end: request, body, decoded points.
func BenchmarkActivityHistory(b *testing.B) {
	activityComparison(b, newTwin(b, benchPackages, benchPoints)).bench(b)
}

// historySummary is what the check compares of an activity history.
type historySummary struct {
	Points      int
	First, Last pointSummary
}

// pointSummary is the time (Unix milliseconds) and the players of a point.
type pointSummary struct {
	MS      int64
	Players float64
	Null    bool
}

func activityComparison(tb testing.TB, twin *gamedatatest.Server) comparison[historySummary] {
	url := twin.URL + "/api/activity-history?range=all"
	want, err := jsonHistory(twin.Catalog().ActivityHistory("all"))
	if err != nil {
		tb.Fatal(err)
	}
	sdk, sdkNoCache := sdkClients(tb, twin.URL)
	sdkCall := func(c *gamedata.Client) func(context.Context) (*gamedata.ActivityHistory, error) {
		return func(ctx context.Context) (*gamedata.ActivityHistory, error) {
			return c.Activity.History(ctx, &gamedata.ActivityOptions{Range: "all"})
		}
	}
	o31, o30, oapi := generatedClients(tb, twin.URL)
	floorHTTP, jsonHTTP := httpClient(), httpClient()
	return comparison[historySummary]{
		floor: func(ctx context.Context) error { return drain(ctx, floorHTTP, url) },
		want:  want,
		peers: []peer[historySummary]{
			newPeer("sdk", sdkCall(sdk), sdkHistory),
			newPeer("sdk-nocache", sdkCall(sdkNoCache), sdkHistory),
			newPeer("ogen-3.1", func(ctx context.Context) (*ogen31.ActivityHistory, error) {
				res, err := o31.GetActivityHistory(ctx, ogen31.GetActivityHistoryParams{Range: ogen31.NewOptString("all")})
				if err != nil {
					return nil, err
				}
				if h, ok := res.(*ogen31.ActivityHistoryHeaders); ok {
					return &h.Response, nil
				}
				return nil, errStatus(res)
			}, ogen31History),
			newPeer("ogen-3.0", func(ctx context.Context) (*ogen30.ActivityHistory, error) {
				res, err := o30.GetActivityHistory(ctx, ogen30.GetActivityHistoryParams{Range: ogen30.NewOptString("all")})
				if err != nil {
					return nil, err
				}
				if h, ok := res.(*ogen30.ActivityHistoryHeaders); ok {
					return &h.Response, nil
				}
				return nil, errStatus(res)
			}, ogen30History),
			newPeer("oapi-codegen", func(ctx context.Context) (*oapi31.ActivityHistory, error) {
				rng := "all"
				res, err := oapi.GetActivityHistoryWithResponse(ctx, &oapi31.GetActivityHistoryParams{Range: &rng})
				if err != nil {
					return nil, err
				}
				if res.JSON200 == nil {
					return nil, errStatus(res.HTTPResponse.Status)
				}
				return res.JSON200, nil
			}, oapiHistory),
			newPeer("net-http-encoding-json", func(ctx context.Context) (*rawHistory, error) {
				var h rawHistory
				return &h, getJSON(ctx, jsonHTTP, url, &h)
			}, func(h *rawHistory) (historySummary, error) { return anyHistory(h.Points) }),
		},
	}
}

// rawHistory is the natural encoding/json shape of an activity history.
type rawHistory struct {
	Range           string  `json:"range"`
	Points          [][]any `json:"points"`
	PartialCoverage []int64 `json:"partialCoverage"`
}

// getJSON is net/http and encoding/json: one GET, its body decoded into v.
func getJSON(ctx context.Context, hc *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.Unmarshal(body, v)
}

// jsonHistory summarizes the body the twin serves.
func jsonHistory(body []byte) (historySummary, error) {
	var h rawHistory
	if err := json.Unmarshal(body, &h); err != nil {
		return historySummary{}, err
	}
	return anyHistory(h.Points)
}

func anyHistory(points [][]any) (historySummary, error) {
	return summarizeHistory(len(points), func(i int) (pointSummary, error) {
		if len(points[i]) != 7 {
			return pointSummary{}, fmt.Errorf("point %d has %d elements", i, len(points[i]))
		}
		ms, ok := points[i][0].(float64)
		if !ok {
			return pointSummary{}, fmt.Errorf("point %d: time %v", i, points[i][0])
		}
		p := pointSummary{MS: int64(ms)}
		p.Players, ok = points[i][1].(float64)
		p.Null = !ok
		return p, nil
	})
}

func sdkHistory(h *gamedata.ActivityHistory) (historySummary, error) {
	return summarizeHistory(len(h.Points), func(i int) (pointSummary, error) {
		v, ok := h.Points[i].Players.Get()
		return pointSummary{MS: h.Points[i].Time.UnixMilli(), Players: v, Null: !ok}, nil
	})
}

// ogen31History reads the two elements from each raw element ogen keeps
// of a 3.1 tuple.
func ogen31History(h *ogen31.ActivityHistory) (historySummary, error) {
	return summarizeHistory(len(h.Points), func(i int) (pointSummary, error) {
		pt := h.Points[i]
		if len(pt) != 7 {
			return pointSummary{}, fmt.Errorf("point %d has %d elements", i, len(pt))
		}
		ms, err := jx.DecodeBytes(pt[0]).Int64()
		if err != nil {
			return pointSummary{}, err
		}
		p := pointSummary{MS: ms}
		if bytes.Equal(pt[1], []byte("null")) {
			p.Null = true
		} else if p.Players, err = jx.DecodeBytes(pt[1]).Float64(); err != nil {
			return pointSummary{}, err
		}
		return p, nil
	})
}

func ogen30History(h *ogen30.ActivityHistory) (historySummary, error) {
	return summarizeHistory(len(h.Points), func(i int) (pointSummary, error) {
		pt := h.Points[i]
		if len(pt) != 7 {
			return pointSummary{}, fmt.Errorf("point %d has %d elements", i, len(pt))
		}
		return pointSummary{MS: int64(pt[0].Value), Players: pt[1].Value, Null: pt[1].Null}, nil
	})
}

// oapiHistory reads oapi-codegen's points, each a []any
// (oapi31.ActivityPoint is an alias), as encoding/json's.
func oapiHistory(h *oapi31.ActivityHistory) (historySummary, error) { return anyHistory(h.Points) }

// summarizeHistory counts n points and summarizes the first and the last.
func summarizeHistory(n int, point func(int) (pointSummary, error)) (historySummary, error) {
	if n == 0 {
		return historySummary{}, errors.New("no points")
	}
	first, err := point(0)
	if err != nil {
		return historySummary{}, err
	}
	last, err := point(n - 1)
	return historySummary{Points: n, First: first, Last: last}, err
}
