package gamedata_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/url"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// Each example runs against the in-process twin of the service, so its
// output is checked on every go test.

func ExampleNewClient() {
	twin := gamedatatest.NewServer()
	defer twin.Close()

	client, err := gamedata.NewClient(twin.URL)
	if err != nil {
		log.Fatal(err)
	}
	pkg, err := client.Packages.Get(context.Background(), gamedata.KindGame, "neon-miner")
	if err != nil {
		log.Fatal(err)
	}
	title, _ := pkg.Text("title")
	fmt.Println(pkg.Kind, pkg.Ident, title)
	// Output: game neon-miner Neon Miner
}

func ExampleDashboardService_All() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	opts := &gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{Sort: "players", PageSize: 100}}
	n := 0
	for entry, err := range client.Dashboard.All(context.Background(), opts, nil) {
		if err != nil {
			var pe *gamedata.PageError
			if errors.As(err, &pe) {
				fmt.Println("resume at page", pe.Page)
			}
			break
		}
		if n < 3 {
			players := "unavailable"
			if v, ok := entry.Metric("players").Get(); ok {
				players = fmt.Sprint(v)
			}
			fmt.Println(entry.Kind+"/"+entry.Ident, players)
		}
		n++
	}
	fmt.Println(n == len(twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}})))
	// Output:
	// game/rusty-raiders 7714
	// game/quantum-odyssey 7549
	// game/neon-harbor 7301
	// true
}

func ExampleActivityService_History() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	h, err := client.Activity.History(context.Background(), &gamedata.ActivityOptions{Range: gamedata.Range7d})
	if err != nil {
		log.Fatal(err)
	}
	unavailable, partial := 0, 0
	for _, p := range h.Points {
		if _, ok := p.Players.Get(); !ok {
			unavailable++ // null: never counted as zero
		}
		if p.PartialCoverage {
			partial++ // a lower bound, not a complete total
		}
	}
	fmt.Println(len(h.Points), "points,", unavailable, "unavailable,", partial, "partial")
	// Output: 2016 points, 14 unavailable, 808 partial
}

func ExampleAnalyticsService_Package() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	report, err := client.Analytics.Package(context.Background(), gamedata.KindGame, "neon-miner")
	if err != nil {
		log.Fatal(err)
	}
	partial := 0
	for _, h := range report.History {
		if h.PartialCoverage {
			partial++
		}
	}
	last := report.History[len(report.History)-1]
	fmt.Println(len(report.History), "entries,", partial, "with partial coverage")
	fmt.Println("last captured at", last.CapturedAt.UTC().Format("2006-01-02 15:04"))
	// Output:
	// 90 entries, 31 with partial coverage
	// last captured at 2026-11-20 08:07
}

func ExamplePackagesService_Get_notFound() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	_, err := client.Packages.Get(context.Background(), gamedata.KindGame, "no-such-game")
	fmt.Println(errors.Is(err, gamedata.ErrNotFound))
	// Output: true
}

func ExampleUntrusted() {
	title := gamedata.NewUntrusted("\x1b[31mFree\x1b[0m gems \u202eniaga")
	fmt.Printf("%q\n", title.String())
	// Output: "Free gems niaga"
}

func ExampleNullable() {
	players := gamedata.Null[float64]()
	if v, ok := players.Get(); ok {
		fmt.Println(v)
	} else {
		fmt.Println("unavailable")
	}
	// Output: unavailable
}
