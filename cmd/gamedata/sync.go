package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/spf13/cobra"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite", in pure Go
)

// migrations bring a database from one schema version to the next, in
// order: a database is migrated forward, never dropped. Version n is the
// state after migrations[:n].
var migrations = []string{
	`CREATE TABLE directory (
		kind TEXT NOT NULL, ident TEXT NOT NULL DEFAULT '', id TEXT NOT NULL DEFAULT '',
		title TEXT, players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, id));
	CREATE TABLE packages (
		kind TEXT NOT NULL, ident TEXT NOT NULL,
		title TEXT, players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident));
	CREATE TABLE servers (
		id TEXT NOT NULL PRIMARY KEY,
		name TEXT, players REAL, max_players REAL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);
	CREATE TABLE history (
		kind TEXT NOT NULL, ident TEXT NOT NULL, captured_at TEXT NOT NULL,
		players REAL, partial_coverage INTEGER NOT NULL,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL,
		PRIMARY KEY (kind, ident, captured_at));
	CREATE TABLE activity_points (
		time TEXT NOT NULL PRIMARY KEY,
		players REAL, average INTEGER NOT NULL, partial_coverage INTEGER NOT NULL,
		current INTEGER NOT NULL, interval_start TEXT, interval_end TEXT,
		raw TEXT NOT NULL, synced_at TEXT NOT NULL);`,
}

func (a *app) syncCommand() *cobra.Command {
	var db, kind, rng string
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
forward by version, never dropped.`,
		Example: "  gamedata sync --db games.sqlite\n  gamedata sync --db games.sqlite --kind server --range 24h",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if db == "" {
				return usageError{errors.New("sync: --db FILE is required")}
			}
			ctx, c, err := a.connect(cmd)
			if err != nil {
				return err
			}
			store, err := openStore(ctx, db)
			if err != nil {
				return err
			}
			defer store.db.Close()
			err = a.sync(ctx, c, store, kind, rng)
			if a.stderrTTY {
				fmt.Fprintf(a.stderr, "gamedata: sync: %s\n", store.counts)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&db, "db", "", "the SQLite file, made if it does not exist")
	f.StringVar(&kind, "kind", gamedata.KindGame, "the directory's kind: a package kind, or server")
	f.StringVar(&rng, "range", gamedata.Range7d, "the activity history's range")
	return cmd
}

// store is an open database and the rows a sync added and changed.
type store struct {
	db     *sql.DB
	now    string
	counts counts
}

// counts are rows inserted and updated, by table.
type counts map[string][2]int

func (c counts) String() string {
	s := ""
	for _, t := range []string{"directory", "packages", "servers", "history", "activity_points"} {
		s += fmt.Sprintf("%s +%d ~%d; ", t, c[t][0], c[t][1])
	}
	return s + "(+ inserted, ~ updated)"
}

func openStore(ctx context.Context, path string) (*store, error) {
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sync: %s: %w", path, err)
	}
	return &store{db: db, now: time.Now().UTC().Format(time.RFC3339), counts: counts{}}, nil
}

// migrate applies the migrations the database has not had, each in a
// transaction with its version.
func migrate(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var version int
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&version); err != nil {
		return err
	}
	if version > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this program's %d: use a newer gamedata", version, len(migrations))
	}
	for v := version; v < len(migrations); v++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration to version %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, v+1); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// row is one row to upsert: its table, its key columns and values, its
// other columns and values, and the record as sent.
type row struct {
	table      string
	keys, cols []string
	keyv, colv []any
	raw        string
}

// upsert inserts the rows that are new and updates those whose record
// changed, in one transaction, and counts both.
func (s *store) upsert(ctx context.Context, rows []row) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, r := range rows {
		cols := append(append([]string{}, r.cols...), "raw", "synced_at")
		vals := append(append([]any{}, r.colv...), r.raw, s.now)
		insert := fmt.Sprintf(`INSERT INTO %s (%s, %s) VALUES (%s) ON CONFLICT DO NOTHING`, r.table,
			strings.Join(r.keys, ", "), strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(r.keys)+len(cols)), ", "))
		res, err := tx.ExecContext(ctx, insert, append(append([]any{}, r.keyv...), vals...)...)
		if err != nil {
			return fmt.Errorf("%s: %w", r.table, err)
		}
		kind := 0 // inserted
		if n, _ := res.RowsAffected(); n == 0 {
			update := fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ? AND raw IS NOT ?`, r.table,
				strings.Join(cols, " = ?, "), strings.Join(r.keys, " = ? AND "))
			if res, err = tx.ExecContext(ctx, update, append(append(vals, r.keyv...), r.raw)...); err != nil {
				return fmt.Errorf("%s: %w", r.table, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // unchanged
			}
			kind = 1 // updated
		}
		c := s.counts[r.table]
		c[kind]++
		s.counts[r.table] = c
	}
	return tx.Commit()
}

// sync reads the service and upserts what it read, a table at a time, so a
// cut run has committed what it got to.
func (a *app) sync(ctx context.Context, c *gamedata.Client, s *store, kind, rng string) error {
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
	if err := a.syncDetails(ctx, c, s, entries); err != nil {
		return err
	}
	if kind != "server" {
		if err := a.syncHistory(ctx, c, s, entries); err != nil {
			return err
		}
	}
	return a.syncActivity(ctx, c, s, rng)
}

func (a *app) syncDetails(ctx context.Context, c *gamedata.Client, s *store, entries []gamedata.DashboardEntry) error {
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

func (a *app) syncHistory(ctx context.Context, c *gamedata.Client, s *store, entries []gamedata.DashboardEntry) error {
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

func (a *app) syncActivity(ctx context.Context, c *gamedata.Client, s *store, rng string) error {
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

// text is the first of names that is a string member, as sent, or NULL.
func text(f gamedata.Fields, names ...string) any {
	for _, n := range names {
		if t, ok := f.Text(n); ok {
			return t.Unsanitized()
		}
	}
	return nil
}

// metric is a numeric member, or NULL: unavailable is never 0.
func metric(f gamedata.Fields, name string) any {
	if v, ok := f.Metric(name).Get(); ok {
		return v
	}
	return nil
}
