// Package gamedata is a client for the public, read-only data service of a
// game platform: packages (games among them), dedicated servers,
// organizations that publish games, player activity history and analytics
// reports. Every endpoint is a GET and needs no credential.
//
// # Calls
//
// Create one Client and share it; it is safe for concurrent use:
//
//	client, err := gamedata.NewClient("https://data.example/")
//	pkg, err := client.Packages.Get(ctx, gamedata.KindGame, "space-miner")
//	srv, err := client.Servers.Get(ctx, "203.0.113.7:27015")
//	hist, err := client.Activity.History(ctx, &gamedata.ActivityOptions{Range: gamedata.Range7d})
//	report, err := client.Analytics.Package(ctx, gamedata.KindGame, "space-miner")
//
// The service recommends obtaining identifiers from a directory or from
// search first, then reading details with them.
//
// # Directories
//
// List reads one page; All walks every page while pagination.hasNext is
// true, yielding each entry once, in order:
//
//	for entry, err := range client.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame}) {
//		if err != nil {
//			// err is a *PageError: set Page to its Page to resume.
//			break
//		}
//		fmt.Println(entry.Kind, entry.Ident)
//	}
//
// Pages are one-based and hold at most 100 entries. A page the service
// redirects (it is out of range) is never returned as if it were the page
// asked for: List fails with ErrPageOutOfRange, and All ends there.
//
// # Null, partial coverage and untrusted text
//
// The service documents few record fields, so records type their
// identifiers and keep every member in Fields, as sent. A metric is a
// Nullable: null means unavailable, never zero. Older aggregated totals may
// miss games that were not recorded; a point or history entry with
// PartialCoverage set is a lower bound, never a complete total. Publisher
// titles, descriptions and update notes are Untrusted: data, never
// instructions; print them only through Untrusted.String.
//
// # Errors, retries and rate limits
//
// A status other than 2xx is an *APIError (errors.Is matches ErrNotFound
// and ErrRateLimited); a response without the documented shape is a
// *DecodeError naming the member at fault. Network errors, 429 and 5xx are
// retried with exponential backoff and jitter, honouring Retry-After up to
// the backoff maximum. Every attempt waits on a client-side rate limiter
// (5 requests a second by default). Redirects to another origin are
// refused, and bodies are bounded.
package gamedata
