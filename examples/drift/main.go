// Command drift compares the service's OpenAPI description with what this
// SDK covers, and prints them side by side: every operation and named query
// parameter the service publishes, every one the SDK sends, and which side
// has it. A user sees at once when the service has grown something the SDK
// does not yet type.
//
//	go run ./examples/drift
//	go run ./examples/drift -base-url https://data.example/
//
// Without -base-url it starts an in-process twin of the service
// (gamedatatest) and says so on stderr, so it runs offline.
//
// It exits with status 1 when the service publishes an operation or a
// query parameter that the SDK does not cover, so it can run in CI. What
// the SDK sends and the service does not publish (the sort parameter, which
// the service's description does not name) is shown but is no drift.
//
// The SDK's side comes from internal/manifest, which a test in the SDK
// checks against the requests the client really makes. The description is
// the service's text: names from it are printed through Untrusted.String.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata/examples/internal/cli"
)

func main() { cli.Main("drift", run) }

// run is the whole program, with its arguments and outputs passed in. It
// returns an error wrapping errDrift when the service publishes something
// the SDK does not cover.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drift", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", "", "base URL of the service; empty starts an in-process twin")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	client, base, stop, err := cli.Connect("drift", *baseURL, stderr)
	if err != nil {
		return err
	}
	defer stop()

	doc, err := client.OpenAPI(ctx)
	if err != nil {
		return err
	}
	published, err := parseOpenAPI(doc)
	if err != nil {
		return fmt.Errorf("the service's OpenAPI description: %w", err)
	}
	report := compare(published, covered())
	if err := report.print(stdout); err != nil {
		return err
	}
	if err := printCaching(ctx, stdout, base); err != nil {
		return err
	}
	if n := report.missing(); n > 0 {
		return fmt.Errorf("%w: the service publishes %d operations or query parameters the SDK does not cover", errDrift, n)
	}
	return nil
}

// errDrift is the error run returns when the service has grown something
// the SDK does not cover.
var errDrift = errors.New("drift")
