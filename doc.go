// Package gamedata is a client for the public, read-only data service of a
// game platform: packages (games among them), dedicated servers,
// organizations that publish games, player activity history and analytics
// reports. Every endpoint is a GET and needs no credential.
//
// # Calls
//
// Create one [Client] with [NewClient] and share it; it is safe for
// concurrent use and makes no network call until asked. One call per
// resource family, each taking a context.Context:
//
//	client, err := gamedata.NewClient("https://data.example/")
//	page, err := client.Dashboard.List(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame})
//	found, err := client.Search(ctx, &gamedata.SearchOptions{Query: "miner"})
//	pkg, err := client.Packages.Get(ctx, gamedata.KindGame, "space-miner")
//	srv, err := client.Servers.Get(ctx, "203.0.113.7:27015")
//	org, err := client.Organizations.Get(ctx, "acme-games")
//	hist, err := client.Activity.History(ctx, &gamedata.ActivityOptions{Range: gamedata.Range7d})
//	report, err := client.Analytics.Package(ctx, gamedata.KindGame, "space-miner")
//	doc, err := client.OpenAPI(ctx)
//
// Obtain identifiers from a directory or from search first, as the service
// recommends, then read details with them; [PackagesService.GetMany] and
// [ServersService.GetMany] read many at once, in input order.
//
// # Directories
//
// List reads one page; All walks every page while pagination.hasNext is
// true, yielding each entry at most once, in order, and fetching the next
// page while the caller works on this one ([WithPrefetch]):
//
//	for entry, err := range client.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame}, nil) {
//		if err != nil {
//			break // a *PageError: set the options' Page to its Page to resume
//		}
//		fmt.Println(entry.Kind, entry.Ident)
//	}
//
// Pages are one-based and hold at most 100 entries. A redirected page is
// never returned as the page asked for ([ErrPageOutOfRange]). A walk is
// bounded: a directory that runs past the totals it sent, serves pages
// larger than asked for, or goes on past [WalkOptions].MaxItems
// ([DefaultMaxItems] by default) ends it with [ErrWalkUnbounded], so a
// directory that never ends cannot hold a walk, or its memory, for ever. Entries that
// move between pages while a walk runs are counted in [WalkStats]; use a
// stable sort, such as the default, for a complete export.
//
// # Null, partial coverage and untrusted text
//
// Records type their identifiers and keep every member in [Fields], as
// sent (in the form json.Marshal writes). Every value survives
// encoding/json both ways: json.Marshal of a decoded value writes what
// the service sent, and json.Unmarshal of that gives back a value equal
// to it (reflect.DeepEqual), typed fields and Fields alike. A metric is a [Nullable]: null means unavailable, never zero, and
// Get says which. A point or history entry with PartialCoverage set sums
// only the games that were recorded: a lower bound, never a complete total.
// Publisher titles, descriptions and update notes are [Untrusted]: data,
// never instructions; show them only through [Untrusted.String].
//
// # Errors, retries and rate limits
//
// A status other than 2xx is an [*APIError], which errors.Is matches to
// [ErrNotFound] or [ErrRateLimited]; a body without the documented shape
// is a [*DecodeError] naming the member at fault. Network errors, 429 and
// 5xx but 501 are retried with backoff and jitter ([WithRetryMax],
// [WithBackoff]), waiting as Retry-After asks; a Retry-After beyond the
// backoff maximum fails at once with the wait in the error. Every attempt
// waits on one client-side rate limiter ([WithRateLimit], 5 requests a
// second). The service publishes no limits, so the client learns them:
// each throttling response lowers the rate, quiet periods raise it back
// towards the ceiling. [Client.Stats] shows the rate in force and the
// throttled count; [WithAdaptiveRate] turned off keeps the configured
// rate. Redirects to another origin are refused and bodies are bounded.
// The client logs nothing unless given [WithLogger].
//
// # How a call runs
//
// A call resolves its options once ([CallOption]; a walk, a fan-out and a
// watch resolve theirs once for every page, item and poll), builds its URL
// from the endpoint's route template, and starts ([Hooks].OnStart). A
// fresh cached response answers it with no request; otherwise each
// attempt waits on the rate limiter, passes the client's and the call's
// [Middleware], and is read whole; after each attempt the call decides
// whether to try again and waits for it, the Retry-After or a backoff, on
// the client's clock ([Hooks].OnRetry). The call ends with its
// [Response] ([WithResponseInto], [Hooks].OnDone). Code of the caller's
// that the SDK runs in a goroutine of its own (a page fetched ahead, a
// GetMany worker) and that panics panics again, as a [*PanicError], in
// the goroutine that iterates.
//
// # Testing
//
// Package [github.com/gamedata-go/gamedata/gamedatatest] is an in-process,
// seeded twin of the service, as net/http/httptest is for net/http: point a Client at its URL to test
// code that uses this package offline, with faults injected on demand.
//
//	twin := gamedatatest.NewServer()
//	defer twin.Close()
//	client, err := gamedata.NewClient(twin.URL)
package gamedata
