package main

import (
	"context"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
)

// syncOptions are sync's options.
type syncOptions struct {
	common
	// DB is the SQLite file.
	DB string
	// Kind is the directory's kind; Range the activity history's.
	Kind, Range string
}

func newCmdSync(f *factory, runF func(context.Context, *syncOptions) error) *cobra.Command {
	opts := &syncOptions{}
	if runF == nil {
		runF = syncRun
	}
	cmd := &cobra.Command{
		Use:   "sync --db FILE",
		Short: "Sync the directory, details, analytics history and activity into SQLite",
		Long: `Sync into a SQLite file: the directory of --kind (game by default), the
detail record of every entry, the analytics history of every package, and
the platform's activity points over --range. Each row is upserted by its
natural key (kind and ident; server id; package and capturedAt; point
time), so running sync every hour builds a series longer than the
service's window, and a run over unchanged data adds no row. Null stays
NULL, partial coverage is a column, and the record as sent is kept as JSON
beside the typed columns. A run cut at any point leaves a database that
the next run completes. The schema is in the README; it is migrated
forward by version, never dropped, in one transaction, so several syncs
started at once on a new file all succeed; a file of a newer schema is
refused and left as it was. sync has no time bound unless --timeout gives
one.`,
		Example: "  gamedata sync --db games.sqlite\n  gamedata sync --db games.sqlite --kind server --range 24h",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.common = f.common(cmd, 0)
			if opts.DB == "" {
				return usagef("sync: --db FILE is required")
			}
			return execute(cmd.Context(), opts.common, func(ctx context.Context) error { return runF(ctx, opts) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.DB, "db", "", "the SQLite file, made if it does not exist")
	fl.StringVar(&opts.Kind, "kind", gamedata.KindGame, "the directory's kind: a package kind, or server")
	fl.StringVar(&opts.Range, "range", gamedata.Range7d, "the activity history's range")
	return cmd
}

func syncRun(ctx context.Context, opts *syncOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	store, err := openStore(ctx, opts.DB)
	if err != nil {
		return err
	}
	defer store.db.Close()
	err = syncAll(ctx, c, store, opts.Kind, opts.Range)
	if opts.IO.errTTY {
		say(opts.IO.errOut, "sync: %s", store.counts)
	}
	return err
}

// sync reads the service and upserts what it read, a table at a time, so a
// cut run has committed what it got to.
func syncAll(ctx context.Context, c *gamedata.Client, s *store, kind, rng string) error {
	var entries []gamedata.DashboardEntry
	var rows []row
	opts := &gamedata.DashboardOptions{Kind: kind, ListOptions: gamedata.ListOptions{PageSize: 100}}
	for e, err := range c.Dashboard.All(ctx, opts) {
		if err != nil {
			return err
		}
		entries = append(entries, e)
		rows = append(rows, row{table: "directory", keys: []string{"kind", "ident", "id"}, keyv: []any{e.Kind, e.Ident, e.ID},
			cols: []string{"title", "players"}, colv: []any{text(e.Fields, "title", "name"), metric(e.Fields, "players")}, raw: string(e.JSON())})
	}
	if err := s.upsert(ctx, rows); err != nil {
		return err
	}
	if err := syncDetails(ctx, c, s, entries); err != nil {
		return err
	}
	if kind != "server" {
		if err := syncHistory(ctx, c, s, entries); err != nil {
			return err
		}
	}
	return syncActivity(ctx, c, s, rng)
}

func syncDetails(ctx context.Context, c *gamedata.Client, s *store, entries []gamedata.DashboardEntry) error {
	var refs []gamedata.PackageRef
	var ids []string
	for _, e := range entries {
		if e.IsServer() {
			ids = append(ids, e.ID)
		} else if e.Ident != "." && e.Ident != ".." {
			refs = append(refs, e.PackageRef())
		}
	}
	var rows []row
	for p, err := range c.Packages.GetMany(ctx, refs, 4) {
		if err != nil {
			return err
		}
		rows = append(rows, row{table: "packages", keys: []string{"kind", "ident"}, keyv: []any{p.Kind, p.Ident},
			cols: []string{"title", "players"}, colv: []any{text(p.Fields, "title"), metric(p.Fields, "players")}, raw: string(p.JSON())})
	}
	for v, err := range c.Servers.GetMany(ctx, ids, 4) {
		if err != nil {
			return err
		}
		rows = append(rows, row{table: "servers", keys: []string{"id"}, keyv: []any{v.ID},
			cols: []string{"name", "players", "max_players"},
			colv: []any{text(v.Fields, "name"), metric(v.Fields, "players"), metric(v.Fields, "maxPlayers")}, raw: string(v.JSON())})
	}
	return s.upsert(ctx, rows)
}

func syncHistory(ctx context.Context, c *gamedata.Client, s *store, entries []gamedata.DashboardEntry) error {
	for _, e := range entries {
		if e.IsServer() || e.Ident == "." || e.Ident == ".." {
			continue
		}
		r, err := c.Analytics.Package(ctx, e.Kind, e.Ident)
		if err != nil {
			return err
		}
		rows := make([]row, len(r.History))
		for i, h := range r.History {
			rows[i] = row{table: "history", keys: []string{"kind", "ident", "captured_at"},
				keyv: []any{e.Kind, e.Ident, h.CapturedAt.UTC().Format(time.RFC3339Nano)},
				cols: []string{"players", "partial_coverage"}, colv: []any{metric(h.Fields, "players"), h.PartialCoverage}, raw: string(h.JSON())}
		}
		if err := s.upsert(ctx, rows); err != nil {
			return err
		}
	}
	return nil
}

func syncActivity(ctx context.Context, c *gamedata.Client, s *store, rng string) error {
	h, err := c.Activity.History(ctx, &gamedata.ActivityOptions{Range: rng})
	if err != nil {
		return err
	}
	rows := make([]row, len(h.Points))
	for i, p := range h.Points {
		pr := pointRow(p)
		f, err := fieldsOf(pr)
		if err != nil {
			return err
		}
		rows[i] = row{table: "activity_points", keys: []string{"time"}, keyv: []any{pr.Time},
			cols: []string{"players", "average", "partial_coverage", "current", "interval_start", "interval_end"},
			colv: []any{metric(f, "players"), p.Aggregation == gamedata.AggregationAverage, p.PartialCoverage, p.Current, pr.IntervalStart, pr.IntervalEnd},
			raw:  string(f.JSON())}
	}
	return s.upsert(ctx, rows)
}
