package gamedata_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// More examples, one at least for every service, each against the
// in-process twin so that its output is checked on every go test.

func ExampleDashboardService_List() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	page, err := client.Dashboard.List(context.Background(), &gamedata.DashboardOptions{Kind: "server", ListOptions: gamedata.ListOptions{PageSize: 3}})
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range page.Items {
		fmt.Println(e.IsServer(), e.ID)
	}
	fmt.Println("page", page.Pagination.Page, "has next:", page.Pagination.HasNext)
	// Output:
	// true 192.0.2.105:27015
	// true 192.0.2.108:27015
	// true 192.0.2.124:27015
	// page 1 has next: true
}

func ExampleClient_Search() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	r, err := client.Search(context.Background(), &gamedata.SearchOptions{Query: "neon"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(r.Packages), "packages,", len(r.Servers), "servers,", len(r.Organizations), "organizations")
	p := r.Packages[0]
	title, _ := p.Text("title") // publisher text: print it through String
	fmt.Printf("%s/%s %q\n", p.Kind, p.Ident, title.String())
	// Output:
	// 11 packages, 3 servers, 0 organizations
	// game/neon-builder "Neon Builder"
}

func ExampleServersService_Get() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	// A canonical id as obtained from the dashboard or from search; it is
	// sent as one path segment, colon and all.
	srv, err := client.Servers.Get(context.Background(), "192.0.2.105:27015")
	if err != nil {
		log.Fatal(err)
	}
	maxPlayers, _ := srv.Metric("maxPlayers").Get()
	fmt.Println(srv.ID, "holds", maxPlayers, "players")
	// Output: 192.0.2.105:27015 holds 64 players
}

func ExamplePackagesService_GetMany() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	refs := []gamedata.PackageRef{
		{Kind: gamedata.KindGame, Ident: "neon-miner"},
		{Kind: gamedata.KindGame, Ident: "no-such-game"},
		{Kind: gamedata.KindGame, Ident: "neon-harbor"},
	}
	for pkg, err := range client.Packages.GetMany(context.Background(), refs, 2) {
		var itemErr *gamedata.ItemError
		if errors.As(err, &itemErr) {
			fmt.Println(itemErr.Index, "failed, not found:", errors.Is(err, gamedata.ErrNotFound))
			continue
		}
		fmt.Println(pkg.Ident)
	}
	// Output:
	// neon-miner
	// 1 failed, not found: true
	// neon-harbor
}

func ExampleOrganizationsService_All() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	// The twin is local: no need to spare it with the client's rate limit.
	client, _ := gamedata.NewClient(twin.URL, gamedata.WithRateLimit(rate.Inf, 1))

	var stats gamedata.WalkStats
	n := 0
	for org, err := range client.Organizations.All(context.Background(), &gamedata.ListOptions{PageSize: 10}, &gamedata.WalkOptions{Stats: &stats}) {
		if err != nil {
			log.Fatal(err) // a *PageError: resume at its Page
		}
		if n < 3 {
			name, _ := org.Text("name")
			fmt.Printf("%s %q\n", org.Ident, name) // name.String(): the bidi override is gone
		}
		n++
	}
	fmt.Println(stats.Items, "organizations on", stats.Pages, "pages")
	// Output:
	// 1999 "1999"
	// acme-works "Acme Works"
	// acme-works-2 "Acme Works"
	// 30 organizations on 3 pages
}

func ExampleOrganizationsService_Get() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	org, err := client.Organizations.Get(context.Background(), "copper-hill-collective")
	if err != nil {
		log.Fatal(err)
	}
	website, _ := org.Raw("website") // null when the organization has none
	fmt.Println(org.Ident, string(website))
	// Output: copper-hill-collective null
}

func ExampleAnalyticsService_Search() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	r, err := client.Analytics.Search(context.Background(), &gamedata.SearchOptions{Query: "neon"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(r.Packages), "games,", len(r.Organizations), "organizations")
	// Output: 11 games, 0 organizations
}

func ExampleAnalyticsService_Organization() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	report, err := client.Analytics.Organization(context.Background(), "copper-hill-collective")
	if err != nil {
		log.Fatal(err)
	}
	unavailable, partial := 0, 0
	for _, h := range report.History {
		if h.Metric("players").IsNull() {
			unavailable++ // null: unknown, never zero
		}
		if h.PartialCoverage {
			partial++ // a lower bound: unrecorded games are missing
		}
	}
	fmt.Println(report.Ident, len(report.History), "entries,", unavailable, "unavailable,", partial, "partial")
	// Output: copper-hill-collective 90 entries, 6 unavailable, 32 partial
}

func ExampleClient_OpenAPI() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	doc, err := client.OpenAPI(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	var d struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		log.Fatal(err)
	}
	fmt.Println("OpenAPI", d.OpenAPI+",", len(d.Paths), "paths")
	// Output: OpenAPI 3.1.0, 11 paths
}

func ExampleClient_Stats() {
	// A twin that allows one request a day.
	twin := gamedatatest.NewServer(gamedatatest.WithRateLimit(1.0/86400, 1))
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL, gamedata.WithRetryMax(0))

	ctx := context.Background()
	_, err := client.Packages.Get(ctx, gamedata.KindGame, "neon-miner")
	fmt.Println("first:", err)
	_, err = client.Packages.Get(ctx, gamedata.KindGame, "neon-miner")
	var apiErr *gamedata.APIError
	fmt.Println("second: rate limited:", errors.Is(err, gamedata.ErrRateLimited),
		"retry after given:", errors.As(err, &apiErr) && apiErr.RetryAfter > 0)

	s := client.Stats() // the client learnt from the 429 and slowed down
	fmt.Println(s.Requests, "requests,", s.Throttled, "throttled, rate lowered:", s.Rate < s.Ceiling)
	// Output:
	// first: <nil>
	// second: rate limited: true retry after given: true
	// 2 requests, 1 throttled, rate lowered: true
}
