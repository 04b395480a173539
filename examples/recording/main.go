// Command recording prints the most played games of the service with
// their record's figures. Its test, main_test.go, is what it is for: a
// test of a program's own code that records what the service answers
// once and replays it offline afterwards, with gamedatatest's recordings.
//
//	go run ./examples/recording
//	go run ./examples/recording -base-url https://data.example/ -top 10
//	go test ./examples/recording
//
// Without -base-url it starts an in-process twin of the service
// (gamedatatest) and says so on stderr, so it runs offline.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata/examples/internal/cli"
)

func main() { cli.Main("recording", run) }

// run is the whole program, with its arguments and outputs passed in.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("recording", flag.ContinueOnError)
	fs.SetOutput(stderr)
	baseURL := fs.String("base-url", "", "base URL of the service; empty starts an in-process twin")
	top := fs.Int("top", 5, "how many games to print, from 1 to 100")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *top < 1 || *top > 100 {
		return fmt.Errorf("-top %d: give a number from 1 to 100", *top)
	}
	client, _, stop, err := cli.Connect("recording", *baseURL, stderr)
	if err != nil {
		return err
	}
	defer stop()
	return topGames(ctx, client, *top, stdout)
}
