package gamedata_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// The twin tells clients to store its answers but revalidate them on
// every use, so the second read is a 304 that the cache turns back into
// the stored 200.
func ExampleWithResponseInto() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)

	for range 2 {
		var r gamedata.Response
		if _, err := client.Packages.Get(context.Background(), gamedata.KindGame, "1337", gamedata.WithResponseInto(&r)); err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.StatusCode, r.Attempts, r.Cache)
	}
	// Output:
	// 200 1 miss
	// 200 1 revalidated
}

// Per-call options steer one call: here its retries, a header and the
// cache. The service fails the first request of every URL once.
func ExampleCallOption() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	faults := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, Attempts: 1})
	srv := httptest.NewServer(faults)
	defer srv.Close()
	defer faults.Close()
	client, _ := gamedata.NewClient(srv.URL, gamedata.WithBackoff(time.Millisecond, 10*time.Millisecond))
	ctx := context.Background()

	_, err := client.Packages.Get(ctx, gamedata.KindGame, "1337", gamedata.WithCallRetries(0))
	var apiErr *gamedata.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("no retry:", apiErr.StatusCode, "after", apiErr.Response.Attempts, "attempt")
	}

	var r gamedata.Response
	_, err = client.Servers.Get(ctx, twin.Catalog().Servers[0].ID,
		gamedata.WithHeader("X-Request-Purpose", "example"),
		gamedata.WithCacheMode(gamedata.CacheSkip),
		gamedata.WithResponseInto(&r))
	fmt.Println("the client's retries:", err, r.Attempts, "attempts, cache", r.Cache)
	// Output:
	// no retry: 503 after 1 attempt
	// the client's retries: <nil> 2 attempts, cache off
}

// A middleware sees every attempt, with the call's route template, which
// stays the same whatever the identifiers, and the attempt's number; a
// fresh cache hit sends nothing, so the hooks report how each call ended.
func ExampleMiddleware() {
	twin := gamedatatest.NewServer(gamedatatest.WithCachePolicy(gamedatatest.FamilyPackage, gamedatatest.CachePolicy{CacheControl: "max-age=60"}))
	defer twin.Close()
	logAttempts := func(req *http.Request, next gamedata.Next) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err == nil {
			fmt.Printf("%s %s attempt %d: %d\n", req.Method, next.Route(), next.Attempt(), resp.StatusCode)
		}
		return resp, err
	}
	client, _ := gamedata.NewClient(twin.URL,
		gamedata.WithMiddleware(logAttempts),
		gamedata.WithHooks(gamedata.Hooks{OnDone: func(_ context.Context, e gamedata.DoneEvent) {
			fmt.Println("done:", e.Route, e.Response.Cache, e.Err)
		}}))

	for range 2 {
		if _, err := client.Packages.Get(context.Background(), gamedata.KindGame, "1337"); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// GET /api/packages/{kind}/{ident} attempt 1: 200
	// done: /api/packages/{kind}/{ident} miss <nil>
	// done: /api/packages/{kind}/{ident} hit <nil>
}
