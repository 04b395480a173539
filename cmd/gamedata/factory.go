package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/transform"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/spf13/cobra"
	"golang.org/x/time/rate"
)

// factory is what the commands share: the streams, the environment and
// the client a command's flags describe, made on first use.
type factory struct {
	io     *iostreams
	twin   *gamedatatest.Server // the in-process twin, once it serves
	client *gamedata.Client
	// recording is what --record writes or --replay reads, once the
	// client is made.
	recording *recording
	// base is the base URL the client reached for, "" for the twin.
	base string
	// now is the wall clock: the twin the command starts is set to it.
	now func() time.Time
	// getenv reads the environment: $GAMEDATA_BASE_URL and
	// $GAMEDATA_DEBUG.
	getenv func(string) string
}

func newFactory(stdout, stderr io.Writer) *factory {
	return &factory{io: newIOStreams(stdout, stderr), now: time.Now, getenv: os.Getenv}
}

// addServiceFlags adds the flags of a command that calls the service to
// cmd, bound into c, and gives c the client they describe.
func (f *factory) addServiceFlags(cmd *cobra.Command, c *common) {
	c.Service = &serviceFlags{}
	c.Service.register(cmd, f.getenv("GAMEDATA_BASE_URL"))
	c.Client = func(observers ...observer) (*gamedata.Client, error) { return f.newClient(*c.Service, observers...) }
}

// addRecordFlags adds the flags of a command that reads the service and
// prints records: the service's, -o, --timeout (whose default bound says)
// and --jq and --template.
func (f *factory) addRecordFlags(cmd *cobra.Command, c *common, bound string) {
	f.addServiceFlags(cmd, c)
	c.addOutputFlag(cmd, "table on a terminal, ndjson otherwise", recordFormats...)
	c.addTimeoutFlag(cmd, bound)
	c.TransformFlags.Register(cmd)
}

// complete makes c whole once cmd's flags are parsed, refusing a bad
// value before anything starts: the streams, the format in force, the
// time bound (bound, a command's own, unless --timeout is given), --jq
// or --template, and for a command that calls the service
// $GAMEDATA_DEBUG.
func (f *factory) complete(cmd *cobra.Command, c *common, bound time.Duration) error {
	if err := c.check(cmd); err != nil {
		return err
	}
	if s := c.Service; s != nil {
		var err error
		if s.Debug, err = parseDebug(f.getenv("GAMEDATA_DEBUG")); err != nil {
			return err
		}
	}
	c.IO = f.io
	switch {
	case c.Output != "":
		c.Format = c.Output
	case f.io.outTTY:
		c.Format = "table"
	default:
		c.Format = "ndjson"
	}
	c.Timeout = bound
	if c.timeoutGiven {
		c.Timeout = c.timeout
	}
	var err error
	c.Transform, err = transform.New(c.TransformFlags, c.Output, f.io.out, f.io.outTTY, f.io.width, time.Now)
	return err
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

// newClient returns the client, made on first use: the twin when no base
// URL is given (or --twin is), the recording --record or --replay names,
// the rate limit, the disk cache and the debug lines s asks for, and the
// observers over the transport, outermost last.
func (f *factory) newClient(s serviceFlags, observers ...observer) (*gamedata.Client, error) {
	if f.client != nil {
		return f.client, nil
	}
	rec, err := openRecording(s.recordFlags)
	if err != nil {
		return nil, err
	}
	transport := rec.transport(http.DefaultTransport)
	for _, o := range observers {
		transport = o(transport)
	}
	limit := rate.Limit(s.Rate)
	if s.Rate == 0 {
		limit = rate.Inf
	}
	opts := []gamedata.Option{gamedata.WithRateLimit(limit, 1), gamedata.WithUserAgent("gamedata-cli/" + gamedata.Version),
		gamedata.WithHTTPClient(&http.Client{Transport: transport})}
	if s.Debug {
		opts = append(opts, gamedata.WithLogger(slog.New(message.NewDebugHandler(f.io.errOut))))
	}
	if s.CacheDir != "" && rec == nil { // a cached answer is never sent: a recording would miss it
		cache, err := f.diskCache(s)
		if err != nil {
			return nil, err
		}
		if cache != nil {
			opts = append(opts, gamedata.WithCache(cache))
		}
	}
	base := s.BaseURL
	switch {
	case rec.replays():
		f.twin = gamedatatest.NewServer(gamedatatest.WithRecording(rec.rec))
		base = f.twin.URL
		message.Line(f.io.errOut, "%s", message.RedactURLs(replayNotice(s, base)))
	case s.Twin || base == "":
		// A person's twin starts now, not at the reference time tests
		// keep: a sync stamps runs over data that reaches today, and a
		// chart's last days are not a gap.
		f.twin = gamedatatest.NewServer(gamedatatest.WithNow(f.now()))
		base = f.twin.URL
		message.Line(f.io.errOut, "%s", message.RedactURLs(twinNotice(s, base)))
	default:
		f.base = base
	}
	c, err := gamedata.NewClient(base, opts...)
	if err != nil {
		if errors.Is(err, gamedata.ErrInvalidArgument) {
			return nil, message.UsageError{Err: err}
		}
		return nil, err
	}
	// Only now is the recording the command's to end: one refused before
	// it has a client sent nothing, and --record-mode all would save that
	// nothing over what the file held.
	f.client, f.recording = c, rec
	return c, nil
}

// diskCache is the cache in the directory s names. One that cannot be
// kept there is the user's flag to fix when --cache-dir gave it; when it
// is a command's default (sync's, under the home directory, which may
// not exist), the command runs without one and says so once.
func (f *factory) diskCache(s serviceFlags) (gamedata.Cache, error) {
	cache, err := gamedata.NewDiskCache(s.CacheDir)
	if err == nil {
		return cache, nil
	}
	cause := message.Safe(cacheRefusal(err))
	if s.cacheDirGiven {
		instead := "a directory only you can write"
		if own := suggestedCacheDir(); own != s.CacheDir {
			instead += ", such as " + own + " (sync's default)"
		}
		return nil, fmt.Errorf("--cache-dir %s: no cache can be kept there: %s; give %s, or leave --cache-dir out", message.Safe(s.CacheDir), cause, instead)
	}
	message.Line(f.io.errOut, "no HTTP cache this run: %s (give --cache-dir to keep one elsewhere, or --no-cache)", cause)
	return nil, nil
}

// cacheRefusal is why gamedata.NewDiskCache refused a directory, in the
// command's words: without the library's prefixes, and without its
// advice, which names a Go function where a person needs a directory.
func cacheRefusal(err error) string {
	msg := err.Error()
	for _, prefix := range []string{"gamedata: NewDiskCache: ", gamedata.ErrUnsafeCacheDir.Error() + ": "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	for _, advice := range []string{"; use a directory of your own", ": give the directory it leads to"} {
		if i := strings.Index(msg, advice); i >= 0 {
			msg = msg[:i]
		}
	}
	return msg
}

// reached is the base URL the command's client reached for: "" for the
// twin (or none made), so that a message names the request's own host.
func (f *factory) reached() string { return f.base }

// twinNotice says why the twin at url serves the command: --twin won
// over a base URL, or none was given.
func twinNotice(s serviceFlags, url string) string {
	const twin = "the in-process twin of the service (gamedatatest) at "
	switch {
	case s.Twin && s.BaseURL != "" && s.baseURLGiven:
		return "--twin given: using " + twin + url + ", not --base-url " + s.BaseURL
	case s.Twin && s.BaseURL != "":
		return "--twin given: using " + twin + url + ", not $GAMEDATA_BASE_URL (" + s.BaseURL + ")"
	case s.Twin:
		return "--twin given: using " + twin + url
	}
	return "no --base-url given; using " + twin + url
}

// replayNotice says that the twin at url answers from the recording s
// names, offline: over $GAMEDATA_BASE_URL when it is set.
func replayNotice(s serviceFlags, url string) string {
	notice := "--replay given: answering from " + s.Replay + ", offline, through the in-process twin of the service (gamedatatest) at " + url
	if s.BaseURL != "" {
		notice += ", not $GAMEDATA_BASE_URL (" + s.BaseURL + ")"
	}
	return notice
}

func (f *factory) close() {
	if f.twin != nil {
		f.twin.Close()
	}
}
