package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/explain"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/redact"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/say"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/transform"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/usage"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/spf13/cobra"
	"golang.org/x/time/rate"
)

// defaultTimeout bounds a command that reads one record or one page when
// --timeout is not given: far longer than any answer takes at the default
// rate, yet a body that trickles in cannot keep the command alive for
// long.
const defaultTimeout = 2 * time.Minute

// factory is what the commands share: the streams, the global flags and
// the client those describe, made on first use. A command reaches it only
// through its options' common part, so a test can stop a command after
// flag parsing and read everything it would have run with.
type factory struct {
	io     *iostreams
	global globals
	twin   *gamedatatest.Server // the in-process twin, once it serves
	client *gamedata.Client
	// tx is the command's --jq or --template, once its flags are parsed.
	tx *transform.Transform
	// now is the wall clock: the twin the command starts is set to it.
	now func() time.Time
}

func newFactory(stdout, stderr io.Writer) *factory {
	return &factory{io: newIOStreams(stdout, stderr), now: time.Now}
}

// globals are the root command's flags.
type globals struct {
	baseURL string
	// baseURLFlag is true when --base-url, not $GAMEDATA_BASE_URL, gave
	// baseURL.
	baseURLFlag bool
	// cacheDirFlag is true when --cache-dir, not a command's default,
	// gave cacheDir.
	cacheDirFlag bool
	twin         bool
	rate         float64
	cacheDir     string
	output       string
	timeout      time.Duration
}

// check refuses bad global flags before anything is sent.
func (g *globals) check() error {
	switch g.output {
	case "", "json", "ndjson", "csv", "table":
	default:
		return usage.Errorf("-o %q: want json, ndjson, csv or table", g.output)
	}
	if g.rate < 0 || math.IsNaN(g.rate) || math.IsInf(g.rate, 0) {
		return usage.Errorf("--rate %v: want a number of requests a second, or 0 for no limit", g.rate)
	}
	if g.timeout < 0 {
		return usage.Errorf("--timeout %v: want 0 (no limit) or more", g.timeout)
	}
	return nil
}

// common is what every command's options hold, set from the global flags
// once they are parsed.
type common struct {
	IO *iostreams
	// Client returns the client the global flags describe, made on first
	// use with extra options (a command that watches the attempts gives
	// its HTTP client): nothing is started until a command needs the
	// service.
	Client func(extra ...gamedata.Option) (*gamedata.Client, error)
	// Format is the output format in force: -o, or else a table on a
	// terminal and NDJSON in a pipe.
	Format string
	// Timeout bounds the whole command; 0 is no bound.
	Timeout time.Duration
	// Transform is --jq or --template, or nil.
	Transform *transform.Transform
}

// common returns the common options of cmd, whose timeout is bound unless
// --timeout was given: defaultTimeout for a command that reads a record
// or a page, 0 for a long job.
func (f *factory) common(cmd *cobra.Command, bound time.Duration) common {
	if fl := cmd.Flag("timeout"); fl != nil && fl.Changed {
		bound = f.global.timeout
	}
	return common{IO: f.io, Client: f.newClient, Format: f.format(), Timeout: bound, Transform: f.tx}
}

// format is the output format in force.
func (f *factory) format() string {
	switch {
	case f.global.output != "":
		return f.global.output
	case f.io.outTTY:
		return "table"
	}
	return "ndjson"
}

// execute runs run within c.Timeout, and says so when the bound is what
// ended it.
func execute(ctx context.Context, c common, run func(context.Context) error) error {
	if c.Timeout <= 0 {
		return run(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	err := run(ctx)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w (gave up after %v: give --timeout a longer bound, or 0 for none)", err, c.Timeout)
	}
	return err
}

// newClient returns the client, made on first use with extra options
// after its own: the twin when no base URL is given (or --twin is), the
// rate limit and the disk cache the flags ask for.
func (f *factory) newClient(extra ...gamedata.Option) (*gamedata.Client, error) {
	if f.client != nil {
		return f.client, nil
	}
	g := f.global
	limit := rate.Limit(g.rate)
	if g.rate == 0 {
		limit = rate.Inf
	}
	opts := []gamedata.Option{gamedata.WithRateLimit(limit, 1), gamedata.WithUserAgent("gamedata-cli/" + gamedata.Version)}
	if g.cacheDir != "" {
		cache, err := f.diskCache()
		if err != nil {
			return nil, err
		}
		if cache != nil {
			opts = append(opts, gamedata.WithCache(cache))
		}
	}
	base := g.baseURL
	if g.twin || base == "" {
		// A person's twin starts now, not at the reference time tests
		// keep: a sync stamps runs over data that reaches today, and a
		// chart's last days are not a gap.
		f.twin = gamedatatest.NewServer(gamedatatest.WithNow(f.now()))
		base = f.twin.URL
		say.Line(f.io.errOut, "%s", redact.URLs(twinNotice(g, base)))
	}
	c, err := gamedata.NewClient(base, append(opts, extra...)...)
	if err != nil {
		if errors.Is(err, gamedata.ErrInvalidArgument) {
			return nil, usage.Error{Err: err}
		}
		return nil, err
	}
	f.client = c
	return c, nil
}

// diskCache is the cache in the directory the flags name. One that
// cannot be kept there is the user's flag to fix when --cache-dir gave
// it; when it is a command's default (sync's, under the home directory,
// which may not exist), the command runs without one and says so once.
func (f *factory) diskCache() (gamedata.Cache, error) {
	dir := f.global.cacheDir
	cache, err := gamedata.NewDiskCache(dir)
	if err == nil {
		return cache, nil
	}
	cause := strings.TrimPrefix(err.Error(), "gamedata: NewDiskCache: ")
	if f.global.cacheDirFlag {
		return nil, fmt.Errorf("--cache-dir %s: no cache can be kept there (%s); give a directory of your own that you can write, or leave --cache-dir out (sync: --no-cache)", explain.Safe(dir), explain.Safe(cause))
	}
	say.Line(f.io.errOut, "no HTTP cache this run: %s (give --cache-dir to keep one elsewhere, or --no-cache)", explain.Safe(cause))
	return nil, nil
}

// reached is the base URL the command's client reached for: "" for the
// twin (or none made), so that a message names the request's own host.
func (f *factory) reached() string {
	if f.twin != nil {
		return ""
	}
	return f.global.baseURL
}

// twinNotice says why the twin at url serves the command: --twin won
// over a base URL, or none was given.
func twinNotice(g globals, url string) string {
	const twin = "the in-process twin of the service (gamedatatest) at "
	switch {
	case g.twin && g.baseURL != "" && g.baseURLFlag:
		return "--twin given: using " + twin + url + ", not --base-url " + g.baseURL
	case g.twin && g.baseURL != "":
		return "--twin given: using " + twin + url + ", not $GAMEDATA_BASE_URL (" + g.baseURL + ")"
	case g.twin:
		return "--twin given: using " + twin + url
	}
	return "no --base-url given; using " + twin + url
}

func (f *factory) close() {
	if f.twin != nil {
		f.twin.Close()
	}
}
