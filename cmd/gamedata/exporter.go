package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/exporter"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/spf13/cobra"
)

// exporterOptions are the exporter's options.
type exporterOptions struct {
	common
	// Listen is the address /metrics, /healthz and / are served on.
	Listen string
	// Config is the exporter's configuration, checked, once the flags are
	// parsed.
	Config exporter.Config

	packages []string // --package, as given
	cfg      exporter.Config
}

// config checks the flags and makes the exporter's configuration; an
// error is bad usage.
func (o *exporterOptions) config() (exporter.Config, error) {
	if err := checkListen(o.Listen); err != nil {
		return exporter.Config{}, message.UsageError{Err: err}
	}
	cfg := o.cfg
	cfg.Packages = nil
	for _, p := range o.packages {
		ref, err := exporter.ParsePackage(p)
		if err != nil {
			return exporter.Config{}, message.UsageError{Err: fmt.Errorf("exporter %w", err)}
		}
		cfg.Packages = append(cfg.Packages, ref)
	}
	if err := cfg.Check(); err != nil {
		return exporter.Config{}, message.UsageError{Err: fmt.Errorf("exporter %w", err)}
	}
	return cfg, nil
}

// redactedError is err said with the URLs in its message redacted: a
// password or token that came in --base-url is never said. err stays in
// the chain, so the exit status it means holds.
type redactedError struct{ err error }

func (e redactedError) Error() string { return message.RedactURLs(e.err.Error()) }

func (e redactedError) Unwrap() error { return e.err }

func redactErr(err error) error {
	if err == nil {
		return nil
	}
	return redactedError{err}
}

// checkListen refuses a --listen that net.Listen would refuse for its
// form, so that a typo is a usage error before anything starts rather
// than a failure to listen.
func checkListen(listen string) error {
	_, port, err := net.SplitHostPort(listen)
	if err != nil {
		if at := strings.LastIndex(listen, "@"); at >= 0 {
			listen = "xxxxx" + listen[at:] // what reads as userinfo may be a password
		}
		return fmt.Errorf("exporter --listen %q: want HOST:PORT, such as %s", listen, exporter.DefaultListen)
	}
	if port == "" || strings.Trim(port, "-0123456789") != "" {
		return nil // a service name, such as http, or none: net.Listen reads it
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("exporter --listen %q: invalid port %s; want 0 to 65535 (0: any free port), such as %s", listen, port, exporter.DefaultListen)
	}
	return nil
}

func newCmdExporter(f *factory, runF func(context.Context, *exporterOptions) error) *cobra.Command {
	opts := &exporterOptions{}
	if runF == nil {
		runF = exporterRun
	}
	cmd := &cobra.Command{
		Use:   "exporter",
		Short: "Serve player counts as Prometheus metrics, polled on an interval",
		Long: `Serve player counts as Prometheus metrics on --listen: /metrics, /healthz
(200 while the last poll that succeeded is at most three intervals old)
and / (what is exported). The service is polled every --every, never on a
scrape, through the client's cache (an unchanged page costs a 304) and
rate limit (--rate).

A poll reads the directory slice that --kind, --filter and --top choose
(the whole default directory when nothing is chosen), the packages and
servers named with --package and --server, and the platform's activity.
A null is an absent sample, never 0; an entry that leaves the directory
loses its series at the next poll. --max-series caps the series of
packages and servers; titles and other labels are cut to 128 characters.
A poll that has not ended one interval after it started fails. At most 4
scrapes are served at once; the next is answered 503.

A --kind that the service does not list (it answers with its default
directory instead) ends the exporter with status 1 at the first poll.

With --web.config.file, every path is served through a web configuration
file in the Prometheus exporter toolkit's format: TLS, client certificates
and basic auth with bcrypt hashes, read again as it changes. A file that
is not right stops the exporter before it listens. Without it, the
exporter serves plain HTTP and warns when --listen is beyond loopback.

Logs go to stderr. SIGTERM or Ctrl-C stops it; it exits 0. It has no time
bound unless --timeout gives one.`,
		Example: `  gamedata exporter --kind game --top 100
  gamedata exporter --package game/neon-harbor --server 203.0.113.7:27015 --every 30s
  gamedata exporter --kind game --kind mod --filter online --listen 0.0.0.0:9877
  gamedata exporter --kind game --listen 0.0.0.0:9877 --web.config.file /etc/gamedata/web.yml`,
		Args: message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return redactErr(err)
			}
			cfg, err := opts.config()
			if err != nil {
				return redactErr(err)
			}
			opts.Config = cfg
			return redactErr(execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) }))
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Listen, "listen", exporter.DefaultListen, "the address to serve /metrics, /healthz and / on")
	fl.DurationVar(&opts.cfg.Every, "every", exporter.DefaultEvery, "the interval between polls of the service")
	fl.StringArrayVar(&opts.cfg.Kinds, "kind", nil, "a directory kind to poll, such as game, or server for dedicated servers; repeat for several")
	fl.StringSliceVar(&opts.cfg.Filters, "filter", nil, "directory filters, comma-separated or repeated, which combine; the service ignores an unknown one")
	fl.IntVar(&opts.cfg.Top, "top", 0, "keep the N entries of each --kind with the most players (0: every entry)")
	fl.StringArrayVar(&opts.packages, "package", nil, "a package to poll, KIND/IDENT; repeat for several")
	fl.StringArrayVar(&opts.cfg.Servers, "server", nil, "a dedicated server to poll, by its canonical id; repeat for several")
	fl.IntVar(&opts.cfg.MaxSeries, "max-series", exporter.DefaultMaxSeries, "the most series of packages and servers to export")
	fl.StringVar(&opts.cfg.WebConfigFile, "web.config.file", "", "a web configuration file of the Prometheus exporter toolkit: TLS, client certificates and basic auth for every path, re-read as it changes")
	f.addServiceFlags(cmd, &opts.common)
	opts.addTimeoutFlag(cmd, noBound)
	return cmd
}

// exporterRun reads the web configuration file, then listens, so a bad
// file or a busy address fails before the service is asked anything,
// then polls and serves until ctx ends.
func exporterRun(ctx context.Context, opts *exporterOptions) error {
	cfg := opts.Config
	cfg.Logger = slog.New(slog.NewTextHandler(opts.IO.errOut, nil))
	c, err := opts.Client()
	if err != nil {
		return err
	}
	e, err := exporter.New(c, cfg)
	if err != nil {
		return fmt.Errorf("exporter %w", err)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("exporter: %w; is another exporter running there? Choose another --listen", err)
	}
	defer ln.Close()
	err = e.Serve(ctx, ln)
	if kindErr := (*exporter.KindError)(nil); errors.As(err, &kindErr) {
		return fmt.Errorf("exporter %w", kindErr)
	}
	return err
}
