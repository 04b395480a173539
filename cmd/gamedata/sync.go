package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/collect"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/progress"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
	"github.com/spf13/cobra"
)

// syncOptions are sync's options.
type syncOptions struct {
	common
	// DB is the SQLite file, a postgres:// URL or a libpq keyword/value
	// string.
	DB string
	// Kind is the directory's kind; Range the activity history's.
	Kind, Range string
	// DetailsEvery and HistoryEvery are the refresh ages of detail records
	// and analytics reports.
	DetailsEvery, HistoryEvery time.Duration
	// NoCache keeps no HTTP cache between runs.
	NoCache bool
}

func newCmdSync(f *factory, runF func(context.Context, *syncOptions) error) *cobra.Command {
	opts := &syncOptions{}
	if runF == nil {
		runF = syncRun
	}
	cmd := &cobra.Command{
		Use:   "sync --db FILE|postgres://…|'host=… dbname=…'",
		Short: "Record the directory as a series, and what changed, into SQLite or PostgreSQL",
		Long: `Record the service into a database: a SQLite file, or PostgreSQL when --db
is a postgres:// or postgresql:// URL or a libpq keyword/value string
('host=db.example user=gd dbname=games'); anything else is refused. The
password is read from the string, PGPASSWORD or ~/.pgpass (PGPASSFILE),
and never said: messages show it as xxxxx. Each run records every directory
value of --kind (game by default) at the run's time, a row only for a
value that changed, and an entry that left as gone; then it fetches the
detail records of new entries and of entries whose updatedAt moved, or
older than --details-every; the analytics reports older than
--history-every (measured from when they were fetched); and the activity
history over --range. Over an unchanged platform of N entries a run costs
⌈N/100⌉ + 1 requests, each a 304 from the HTTP cache, which sync keeps
under the user cache directory unless --cache-dir or --no-cache says
otherwise.

On a terminal stderr shows a progress bar; every run ends with one line
on stderr and a row in the runs table. What was fetched is committed as
it goes: Ctrl-C keeps it, and the next run goes on from there. A run
killed, or cut off from its database, is recorded as abandoned by the
next run that starts while no other sync runs. An item
that fails after its retries is recorded in the failures table and
skipped; the run goes on, then exits 1 saying how many failed. The schema
is in docs/collecting.md: times are Unix seconds, null is NULL, partial coverage
a column; it is migrated forward by version, never dropped, in one
transaction, so several syncs started at once on a new database all
succeed; a database of a newer schema is refused and left as it was.
sync has no time bound unless --timeout gives one.`,
		Example: "  gamedata sync --db games.sqlite\n  gamedata sync --db postgres://gamedata@localhost:5432/games\n  gamedata sync --db 'host=localhost user=gamedata dbname=games'\n  gamedata sync --db games.sqlite --kind server --range 24h",
		Args:    message.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := dsn.Parse(opts.DB)
			switch {
			case opts.DB == "":
				return message.Usagef("sync: --db FILE or --db postgres://… is required")
			case err != nil:
				return message.Usagef("sync: %w", err)
			case opts.DetailsEvery < 0 || opts.HistoryEvery < 0:
				return message.Usagef("sync: --details-every %v, --history-every %v: want 0 (every run) or more", opts.DetailsEvery, opts.HistoryEvery)
			case opts.NoCache && opts.Service.CacheDir != "":
				return message.Usagef("sync: --no-cache and --cache-dir: give one")
			}
			if err := f.complete(cmd, &opts.common, 0); err != nil {
				return err
			}
			if db.Warning != "" {
				message.Line(f.io.errOut, "sync: %s", db.Warning)
			}
			if !opts.NoCache && opts.Service.CacheDir == "" {
				opts.Service.CacheDir = syncCacheDir(f.io)
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.DB, "db", "", "the SQLite file (made if it does not exist), a postgres:// URL or a keyword/value string ('host=… dbname=…')")
	fl.StringVar(&opts.Kind, "kind", gamedata.KindGame, "the directory's kind: a package kind, or server")
	fl.StringVar(&opts.Range, "range", gamedata.Range7d, "the activity history's range")
	fl.DurationVar(&opts.DetailsEvery, "details-every", 24*time.Hour, "fetch a detail record again after this long even if its entry did not change (0: every run)")
	fl.DurationVar(&opts.HistoryEvery, "history-every", 24*time.Hour, "fetch an analytics report again after this long (0: every run)")
	fl.BoolVar(&opts.NoCache, "no-cache", false, "keep no HTTP cache between runs (every page is then read in full)")
	f.addServiceFlags(cmd, &opts.common)
	opts.addTimeoutFlag(cmd, noBound)
	return cmd
}

// syncCacheDir is sync's HTTP cache when --cache-dir gives none: under
// the user's own cache directory, or none, said on stderr, when there is
// no such directory.
func syncCacheDir(io *iostreams) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		message.Line(io.errOut, "sync: no HTTP cache (%v); give --cache-dir to keep one", err)
		return ""
	}
	return filepath.Join(dir, "gamedata")
}

// syncRun runs once and says how it went, on a terminal and in a pipe.
func syncRun(ctx context.Context, opts *syncOptions) error {
	counter := &bodyCounter{}
	c, err := opts.Client(counter.over)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, opts.DB)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	defer db.Close()
	o := collect.Options{Kind: opts.Kind, Range: opts.Range, DetailsEvery: opts.DetailsEvery, HistoryEvery: opts.HistoryEvery, Concurrency: 4, BytesRead: counter.n.Load}
	var bar *progress.SyncBar
	if opts.IO.errTTY {
		bar = progress.NewSyncBar(opts.IO.errOut)
		o.Progress = bar.Update
	}
	sum, err := collect.Run(ctx, c, db, o)
	if bar != nil {
		bar.End()
	}
	if sum.Run != 0 { // the run was recorded: say how it went
		message.Line(opts.IO.errOut, "sync: %s", sum)
	}
	if err != nil {
		return message.WithKept(fmt.Errorf("sync: %w", err), "what was fetched is kept; run sync again to go on")
	}
	return nil
}

// bodyCounter is a transport that counts the bytes of the response
// bodies read through it: what a run read from the network (a 304 reads
// none), for its summary and the runs table.
type bodyCounter struct {
	next http.RoundTripper
	n    atomic.Int64
}

// over is b counting over next, the command's transport.
func (b *bodyCounter) over(next http.RoundTripper) http.RoundTripper {
	b.next = next
	return b
}

func (b *bodyCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := b.next.RoundTrip(r)
	if resp != nil && resp.Body != nil {
		resp.Body = &countedBody{ReadCloser: resp.Body, n: &b.n}
	}
	return resp, err
}

// countedBody adds the bytes read from a body to n.
type countedBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (c *countedBody) Read(p []byte) (int, error) {
	k, err := c.ReadCloser.Read(p)
	c.n.Add(int64(k))
	return k, err
}
