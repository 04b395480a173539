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
	"flag"
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata/examples/internal/cli"
)

func main() { cli.Main("quickstart", run) }

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
	client, _, stop, err := cli.Connect("quickstart", *baseURL, stderr)
	if err != nil {
		return err
	}
	defer stop()
	return tour(ctx, client, stdout)
}
