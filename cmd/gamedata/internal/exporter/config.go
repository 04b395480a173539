package exporter

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
)

// Defaults of the command's flags.
const (
	DefaultListen    = "127.0.0.1:9877"
	DefaultEvery     = time.Minute
	DefaultMaxSeries = 10000
)

// staleIntervals is how many poll intervals the last successful poll may
// be old before /healthz fails, and how long a part of the data whose
// poll failed is still exported: a brief fault leaves no gap in a graph,
// a long one does not pass old counts off as current.
const staleIntervals = 3

// Config says what an Exporter polls and how often.
type Config struct {
	// Kinds are the directory kinds to poll, one walk each, such as
	// gamedata.KindGame or "server". Empty means the directory as the
	// service lists it without a kind, unless only Packages or Servers
	// are named.
	Kinds []string
	// Filters are sent with every directory walk; the service combines
	// them.
	Filters []string
	// Top, when above 0, keeps the Top entries of each walk with the most
	// players.
	Top int
	// Packages are packages to poll by their records.
	Packages []gamedata.PackageRef
	// Servers are the canonical ids of dedicated servers to poll by their
	// records.
	Servers []string
	// Every is the interval between polls.
	Every time.Duration
	// MaxSeries bounds the series of packages and servers.
	MaxSeries int
	// Logger receives what the exporter has to say; nil says nothing.
	Logger *slog.Logger
	// WebConfigFile, when set, is a web configuration file in the format
	// of the Prometheus exporter toolkit (TLS, client certificates, basic
	// auth with bcrypt hashes) that Serve serves every path through; it is
	// read again on every connection and request, as the toolkit does.
	WebConfigFile string

	// now is the clock; nil means time.Now.
	now func() time.Time
	// afterFunc calls f once d has passed on the clock of now and
	// returns a stop that cancels it; nil means time.AfterFunc.
	afterFunc func(d time.Duration, f func()) (stop func() bool)
}

// Check reports the first thing wrong with c, before anything starts.
func (c *Config) Check() error {
	switch {
	case c.Every <= 0:
		return fmt.Errorf("--every %v: want an interval above 0, such as 1m", c.Every)
	case c.MaxSeries < 1:
		return fmt.Errorf("--max-series %d: want 1 or more", c.MaxSeries)
	case c.Top < 0:
		return fmt.Errorf("--top %d: want 0 (every entry) or more", c.Top)
	}
	for _, k := range c.Kinds {
		if err := checkSegment("--kind", k); err != nil {
			return err
		}
	}
	for _, p := range c.Packages {
		if err := checkSegment("--package kind", p.Kind); err != nil {
			return err
		}
		if err := checkSegment("--package ident", p.Ident); err != nil {
			return err
		}
	}
	for _, id := range c.Servers {
		if err := checkSegment("--server", id); err != nil {
			return err
		}
	}
	return nil
}

// checkSegment refuses what the library would refuse as a path segment,
// so that a bad flag stops the command before it starts.
func checkSegment(flag, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("%s: empty; want a value as the directory or search gives it", flag)
	case s == "." || s == "..":
		return fmt.Errorf("%s %q: a dot segment cannot be requested", flag, s)
	}
	return nil
}

// ParsePackage reads a --package value, KIND/IDENT; the ident may itself
// hold a slash.
func ParsePackage(s string) (gamedata.PackageRef, error) {
	kind, ident, ok := strings.Cut(s, "/")
	if !ok || kind == "" || ident == "" {
		return gamedata.PackageRef{}, fmt.Errorf("--package %q: want KIND/IDENT, such as game/neon-miner", s)
	}
	return gamedata.PackageRef{Kind: kind, Ident: ident}, nil
}

// walksDirectory reports whether the directory is polled: when a slice of
// it is chosen, or when nothing is named at all.
func (c *Config) walksDirectory() bool {
	return len(c.Kinds) > 0 || len(c.Filters) > 0 || c.Top > 0 || (len(c.Packages) == 0 && len(c.Servers) == 0)
}

func (c *Config) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}

func (c *Config) after(d time.Duration, f func()) (stop func() bool) {
	if c.afterFunc != nil {
		return c.afterFunc(d, f)
	}
	return time.AfterFunc(d, f).Stop
}

func (c *Config) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.New(slog.DiscardHandler)
}
