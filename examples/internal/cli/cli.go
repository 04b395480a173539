// Package cli holds what the example programs share: running with the
// process's arguments and streams, and connecting to the service or, by
// default, to an in-process twin of it.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// Main runs run with the process's arguments and streams, cancelling its
// context on an interrupt, and exits with status 1 when it fails. A flag
// error has been printed with the usage already, so only others are
// printed, after the program's name.
func Main(name string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		}
		os.Exit(1)
	}
}

// Connect returns a client for the service at baseURL, made with opts, or,
// when baseURL is empty, for an in-process twin of the service, which it
// names on stderr and which stop shuts down; base is the URL in use. The
// twin starts at the wall clock's time, and is local: its client is not
// rate limited, and opts do not apply to it.
func Connect(name, baseURL string, stderr io.Writer, opts ...gamedata.Option) (client *gamedata.Client, base string, stop func(), err error) {
	if baseURL != "" {
		client, err = gamedata.NewClient(baseURL, opts...)
		return client, baseURL, func() {}, err
	}
	// A person's twin starts now, as the command's does: its histories
	// reach today, not the reference time that tests and Examples keep.
	twin := gamedatatest.NewServer(gamedatatest.WithNow(time.Now()))
	fmt.Fprintf(stderr, "%s: no -base-url given; using the in-process twin of the service (gamedatatest) at %s\n", name, twin.URL)
	client, err = gamedata.NewClient(twin.URL,
		gamedata.WithHTTPClient(twin.Client()),
		gamedata.WithRateLimit(rate.Inf, 1))
	if err != nil {
		twin.Close()
		return nil, "", nil, err
	}
	return client, twin.URL, twin.Close, nil
}
