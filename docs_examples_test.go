package gamedata_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Go blocks of README.md and docs/, each run here as written, against
// the twin, with the names they take as given (baseURL, client, ctx)
// defined before them. TestDocsGoBlocksRun checks that every block stands
// in one of these functions, so a guide's example cannot stop compiling,
// or crash, unseen.

// README.md's tour of the SDK, and docs/sdk.md's "Use".
func ExampleNewClient_tour() {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(8, 0, 1))
	defer twin.Close()
	baseURL := twin.URL

	client, err := gamedata.NewClient(baseURL) // retries, rate limit and a cache by default
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	for entry, err := range client.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame}, nil) {
		if err != nil {
			log.Fatal(err) // a *gamedata.PageError: resume the walk at its Page
		}
		pkg, err := client.Packages.Get(ctx, entry.Kind, entry.Ident)
		if err != nil {
			log.Fatal(err) // errors.Is(err, gamedata.ErrNotFound), a *gamedata.APIError, …
		}
		title, _ := pkg.Text("title")                       // Untrusted: title.String() is safe to print
		if players, ok := pkg.Metric("players").Get(); ok { // Nullable: null is never 0
			fmt.Println(title, players)
		}
	}
	// Output:
	// Lunar Colony 0
	// Ancient Kingdom 0
	// Cosmic Harbor 6 212
	// Shadow Farm 3 0
	// Quantum Raiders 2 40
	// Shadow Legends 10 45
}

// docs/sdk.md, "Per-call options".
func ExampleCallOption_guide() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)
	ctx := context.Background()

	var r gamedata.Response
	pkg, err := client.Packages.Get(ctx, gamedata.KindGame, "1337",
		gamedata.WithCallRetries(0),                // one attempt, whatever WithRetryMax says
		gamedata.WithAttemptTimeout(2*time.Second), // each attempt; the context bounds the call
		gamedata.WithHeader("X-Request-Purpose", "nightly"),
		gamedata.WithQuery("lang", "en"), // part of the URL, so of the cache key
		gamedata.WithCacheMode(gamedata.CacheRevalidate),
		gamedata.WithResponseInto(&r))

	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pkg.Kind, pkg.Ident, r.StatusCode, r.Attempts, r.Cache)
	// Output: game 1337 200 1 miss
}

// docs/sdk.md, "Caching". The user's cache directory is a temporary one
// here, so the example writes nothing under the home directory.
func ExampleNewDiskCache_guide() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	baseURL := twin.URL
	home, err := os.MkdirTemp("", "gamedata-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(home)
	for _, name := range []string{"HOME", "XDG_CACHE_HOME", "LocalAppData"} {
		defer os.Setenv(name, os.Getenv(name))
		os.Setenv(name, home)
	}

	base, err := os.UserCacheDir() // ~/.cache, ~/Library/Caches, %LocalAppData%
	if err != nil {
		log.Fatal(err)
	}
	cache, err := gamedata.NewDiskCache(filepath.Join(base, "gamedata"))
	if err != nil {
		log.Fatal(err) // ErrUnsafeCacheDir says why and what to do
	}
	client, err := gamedata.NewClient(baseURL, gamedata.WithCache(cache))

	if err != nil {
		log.Fatal(err)
	}
	for range 2 {
		var r gamedata.Response
		if _, err := client.Packages.Get(context.Background(), gamedata.KindGame, "1337", gamedata.WithResponseInto(&r)); err != nil {
			log.Fatal(err)
		}
		fmt.Println(r.Cache)
	}
	// Output:
	// miss
	// revalidated
}

// docs/sdk.md, "Range summaries".
func ExampleSummaries_Range_guide() {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	client, _ := gamedata.NewClient(twin.URL)
	report, err := client.Analytics.Package(context.Background(), gamedata.KindGame, "1337")
	if err != nil {
		log.Fatal(err)
	}

	s, _ := report.Summaries.Range("7d")
	fmt.Println("7-day average:", s.Metric("average")) // 1302.8, or null
	// Output: 7-day average: 0.5
}

// docs/sdk.md, "Watch": a package is watched, removed from the twin after
// the first poll, and the watch stops at the poll after the one that saw
// it go. The clock is fake, so the minute between polls takes no time.
func TestDocsWatch(t *testing.T) {
	twin := gamedatatest.NewServer()
	defer twin.Close()
	e := twin.Catalog().Packages[0]
	refs := []gamedata.PackageRef{{Kind: e.Kind, Ident: e.Ident}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	polls := 0
	client := gamedata.NewTestClient(t, twin.URL, gamedata.WithFakeClock(gamedata.NewFakeClock()), gamedata.WithHooks(gamedata.Hooks{
		OnStart: func(context.Context, gamedata.StartEvent) context.Context {
			if polls++; polls == 3 {
				cancel()
			}
			return nil
		},
		OnDone: func(context.Context, gamedata.DoneEvent) {
			if polls == 1 {
				require.NoError(t, twin.RemovePackage(e.Kind, e.Ident))
			}
		},
	}))

	printed := stdoutOf(t, func() {
		for ch, err := range client.Packages.Watch(ctx, refs, time.Minute) {
			if err != nil {
				log.Print(err) // an *ItemError: one poll failed; the watch goes on
				continue
			}
			pkg := ch.New
			if ch.Op == gamedata.Removed {
				pkg = ch.Old // a removed package is only what it was: New is nil
			}
			fmt.Println(ch.Op, pkg.Kind, pkg.Ident)
		}
	})
	assert.Equal(t, fmt.Sprintf("added %[1]s %[2]s\nremoved %[1]s %[2]s\n", e.Kind, e.Ident), printed)
}

// stdoutOf runs f and returns what it wrote on os.Stdout. The test that
// calls it must not be parallel: os.Stdout is the process's.
func stdoutOf(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	saved := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stdout = saved }()
	f()
	os.Stdout = saved
	require.NoError(t, w.Close())
	return <-done
}

// docs/sdk.md, "Testing your own code": the reader's test, as written.
func TestMyReport(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(50, 10, 5))
	defer twin.Close()
	client, err := gamedata.NewClient(twin.URL)
	if err != nil {
		t.Fatal(err)
	}
	got := myReport(client) // your code
	want := len(twin.Catalog().Entries(url.Values{"kind": {gamedata.KindGame}}))
	if got.Games != want {
		t.Errorf("games = %d, want %d", got.Games, want)
	}
}

// gameReport and myReport stand for the reader's own code that
// TestMyReport tests: a count of the games the directory lists.
type gameReport struct{ Games int }

func myReport(client *gamedata.Client) gameReport {
	var r gameReport
	for _, err := range client.Dashboard.All(context.Background(), &gamedata.DashboardOptions{Kind: gamedata.KindGame}, nil) {
		if err != nil {
			return r
		}
		r.Games++
	}
	return r
}
