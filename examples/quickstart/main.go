// Command quickstart tours every endpoint of the service and prints a short
// summary of each.
//
// Without -base-url it starts an in-process twin of the service
// (gamedatatest) and says so on stderr, so it runs offline:
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -base-url https://data.example/
//
// Publisher text (titles, descriptions, names) is untrusted: it is printed
// only through Untrusted.String, which removes terminal escapes, bidi
// controls and other control characters.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "quickstart:", err)
		}
		os.Exit(1)
	}
}

// run is the whole program, with its arguments and outputs passed in.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", "", "base URL of the service; empty starts an in-process twin")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	client, stop, err := connect(*baseURL, stderr)
	if err != nil {
		return err
	}
	defer stop()
	return tour(ctx, client, stdout)
}

// connect returns a client for baseURL or, when it is empty, for an
// in-process twin of the service, which stop shuts down.
func connect(baseURL string, stderr io.Writer) (client *gamedata.Client, stop func(), err error) {
	if baseURL != "" {
		client, err = gamedata.NewClient(baseURL)
		return client, func() {}, err
	}
	twin := gamedatatest.NewServer()
	fmt.Fprintf(stderr, "quickstart: no -base-url given; using the in-process twin of the service (gamedatatest) at %s\n", twin.URL)
	// The twin is local: no need to spare it with the client's rate limit.
	client, err = gamedata.NewClient(twin.URL,
		gamedata.WithHTTPClient(twin.Client()),
		gamedata.WithRateLimit(rate.Inf, 1))
	if err != nil {
		twin.Close()
		return nil, nil, err
	}
	return client, twin.Close, nil
}
