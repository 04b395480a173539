package main

import (
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/transform"
	"github.com/spf13/cobra"
)

// defaultTimeout bounds a command that reads one record or one page when
// --timeout is not given: far longer than any answer takes at the default
// rate, yet a body that trickles in cannot keep the command alive for
// long.
const defaultTimeout = 2 * time.Minute

// The defaults --timeout's help names: a command that reads a record or
// a page is bounded, a long job is not.
var (
	pageBound = "default " + defaultTimeout.String()
	noBound   = "default: no limit"
)

// recordFormats are the -o formats of a command that prints records.
var recordFormats = []string{"json", "ndjson", "csv", "table"}

// common is what every command's options hold: the flags every command,
// or every command that calls the service, takes (each command registers
// those it uses, bound here), and what they make once parsed. A command
// reaches the factory only through it, so a test can stop a command
// after flag parsing and read everything it would have run with.
type common struct {
	IO *iostreams
	// Client returns the client Service describes, made on first use:
	// nothing is started until a command needs the service. A command
	// that watches the attempts gives observers, each an HTTP transport
	// over the one given, which carries the attempts as --record and
	// --replay have them. It is nil for a command that does not call the
	// service.
	Client func(observers ...observer) (*gamedata.Client, error)
	// Service is where the service is and how to ask it, for a command
	// that calls it; nil for one that does not.
	Service *serviceFlags
	// Output is -o as given, "" when it is not.
	Output string
	// Format is the output format in force: -o, or else a table on a
	// terminal and NDJSON in a pipe.
	Format string
	// Timeout bounds the whole command; 0 is no bound.
	Timeout time.Duration
	// TransformFlags are --jq and --template as given, for a command that
	// prints records; Transform is what they ask for, or nil.
	TransformFlags transform.Flags
	Transform      *transform.Transform

	formats []string // -o's formats, none for a command without -o
	// timeout is --timeout as given, and timeoutGiven whether it was:
	// the command's own bound holds otherwise.
	timeout      time.Duration
	timeoutGiven bool
}

// addOutputFlag adds -o to cmd, which takes formats, by default def.
func (c *common) addOutputFlag(cmd *cobra.Command, def string, formats ...string) {
	c.formats = formats
	cmd.Flags().StringVarP(&c.Output, "output", "o", "", "output format: "+orList(formats)+" (default "+def+")")
}

// addTimeoutFlag adds --timeout to cmd, whose default bound def says.
func (c *common) addTimeoutFlag(cmd *cobra.Command, def string) {
	cmd.Flags().Var(givenDuration{&c.timeout, &c.timeoutGiven}, "timeout", "give up on the whole command after this long; 0 for no limit ("+def+")")
}

// check refuses a bad value of the flags c holds, before anything is
// sent, naming the flag and what to give.
func (c *common) check(cmd *cobra.Command) error {
	if c.Output != "" && !slices.Contains(c.formats, c.Output) {
		return message.Usagef("%s -o %q: want %s", cmd.Name(), c.Output, orList(c.formats))
	}
	if c.timeout < 0 {
		return message.Usagef("%s --timeout %v: want 0 (no limit) or more", cmd.Name(), c.timeout)
	}
	if c.Service != nil {
		return c.Service.check(cmd.Name())
	}
	return nil
}

// observer is an HTTP transport that sees each attempt a client makes,
// carried over next.
type observer func(next http.RoundTripper) http.RoundTripper

// serviceFlags are the flags of a command that calls the service.
type serviceFlags struct {
	BaseURL  string
	Twin     bool
	Rate     float64
	CacheDir string
	recordFlags
	// Debug writes a line on stderr for each attempt: $GAMEDATA_DEBUG.
	Debug bool
	// baseURLGiven is true when --base-url, not $GAMEDATA_BASE_URL, gave
	// BaseURL; cacheDirGiven when --cache-dir, not a command's default,
	// gave CacheDir.
	baseURLGiven, cacheDirGiven bool
}

// register adds the service's flags to cmd, bound to s; baseURL is
// --base-url's default, $GAMEDATA_BASE_URL.
func (s *serviceFlags) register(cmd *cobra.Command, baseURL string) {
	fl := cmd.Flags()
	s.BaseURL = baseURL
	fl.Var(givenString{&s.BaseURL, &s.baseURLGiven}, "base-url", "the service's base URL (default $GAMEDATA_BASE_URL; without one, the in-process twin)")
	fl.BoolVar(&s.Twin, "twin", false, "use the in-process twin of the service, offline, even when a base URL is set")
	fl.Float64Var(&s.Rate, "rate", 5, "requests a second at most; 0 for no client-side limit")
	fl.Var(givenString{&s.CacheDir, &s.cacheDirGiven}, "cache-dir", "keep responses in this directory between runs and revalidate them (conditional requests); use a directory only you can write, such as "+suggestedCacheDir())
	s.recordFlags.register(fl)
}

// check refuses a bad --rate, and bad --record and --replay flags.
func (s *serviceFlags) check(command string) error {
	if s.Rate < 0 || math.IsNaN(s.Rate) || math.IsInf(s.Rate, 0) {
		return message.Usagef("%s --rate %v: want a number of requests a second, or 0 for no limit", command, s.Rate)
	}
	if err := s.recordFlags.check(command); err != nil {
		return err
	}
	return s.checkRecordingWith(command)
}

// checkRecordingWith refuses --replay with a flag that would take its
// answers elsewhere (--base-url, --twin, --cache-dir), and --record with
// --cache-dir, whose cached answers are never sent and so never
// recorded.
func (s *serviceFlags) checkRecordingWith(command string) error {
	r := s.recordFlags
	switch {
	case r.Replay != "" && s.baseURLGiven:
		return message.Usagef("%s --replay and --base-url: a replay is offline and sends nothing to the service; leave --base-url out", command)
	case r.Replay != "" && s.Twin:
		return message.Usagef("%s --replay and --twin: a replay answers through the twin already; leave --twin out", command)
	case (r.Record != "" || r.Replay != "") && s.cacheDirGiven:
		return message.Usagef("%s --cache-dir with --%s: a cached answer is never sent, so it is never recorded; leave --cache-dir out", command, r.verb())
	}
	return nil
}

// parseDebug reads $GAMEDATA_DEBUG: whether a line is written on stderr
// for each attempt. A value it does not know is refused with those it
// does, rather than ignored: a typo would otherwise look like a command
// that sends nothing.
func parseDebug(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "", "0", "false":
		return false, nil
	case "api", "1", "true":
		return true, nil
	}
	return false, message.Usagef("GAMEDATA_DEBUG=%q: want api (or 1, true) for a line on stderr for each request attempt, or 0, false or nothing for none", v)
}

// orList is words joined as a sentence lists choices: "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// suggestedCacheDir is where --cache-dir's help suggests keeping the
// cache: under the user's own cache directory, never a shared temporary
// one, where another user could plant entries.
func suggestedCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return filepath.Join("$XDG_CACHE_HOME", "gamedata")
	}
	return filepath.Join(dir, "gamedata")
}
