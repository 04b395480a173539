package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
)

// BenchmarkScale fills a database as hourly syncs of a platform would,
// through the store's real write path (BeginRun, SaveEntries in batches
// of 100, EndWalk, SaveActivity, FinishRun with its rollups), then times
// the dashboards' two heaviest reads: one game's held players over 30
// days, and the platform's daily rollup over a year. It reports the
// database's size and rows per entry-hour, from which BENCHMARKS.md
// extrapolates. GAMEDATA_SCALE_GAMES (default 2,000) and
// GAMEDATA_SCALE_HOURS (default 48) size the platform and the runs; a
// fifth of the games change their players each hour.
// GAMEDATA_SCALE_PG, the URL of a PostgreSQL server's postgres database,
// fills a new database on that server instead of the package's own, so
// that two builds can be measured in turn against one server
// (cmd/gamedata/bench/pg-scale.sh).
func BenchmarkScale(b *testing.B) {
	games, hours := envInt("GAMEDATA_SCALE_GAMES", 2000), envInt("GAMEDATA_SCALE_HOURS", 48)
	for _, dialect := range []string{"sqlite", "postgres"} {
		b.Run(dialect, func(b *testing.B) {
			dsn := filepath.Join(b.TempDir(), "scale.sqlite")
			if dialect == "postgres" {
				dsn = scalePostgres(b)
			}
			db, err := Open(context.Background(), dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			start := time.Now()
			fillScale(b, db, dsn, games, hours)
			fill := time.Since(start)
			if dialect == "sqlite" {
				db.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
			}
			size := dbSize(b, db, dsn)
			var values, rollups int64
			db.db.QueryRow(`SELECT COUNT(*) FROM directory_values`).Scan(&values)
			db.db.QueryRow(`SELECT COUNT(*) FROM directory_rollups`).Scan(&rollups)
			b.Logf("%s: %d games x %d hourly runs in %v: %d bytes, %d directory_values rows, %d directory_rollups rows",
				dialect, games, hours, fill.Round(time.Second), size, values, rollups)
			entryHours := float64(games * hours)
			b.ReportMetric(float64(size)/entryHours, "bytes/entry-hour")
			b.ReportMetric(float64(values)/entryHours, "values/entry-hour")
			b.ReportMetric(float64(rollups)/entryHours, "rollups/entry-hour")

			last := scaleStart.Add(time.Duration(hours-1) * time.Hour)
			from := last.Add(-30 * 24 * time.Hour).Unix()
			game := "g" + strconv.Itoa(games/2)
			b.Run("game-30d", func(b *testing.B) {
				for b.Loop() {
					rows, err := db.db.Query(db.q(heldQuery), from, from, game, from, last.Unix())
					if err != nil {
						b.Fatal(err)
					}
					for rows.Next() {
					}
					rows.Close()
				}
			})
			b.Run("platform-year", func(b *testing.B) {
				for b.Loop() {
					rows, err := db.db.Query(db.q(`SELECT start_at, avg_value, max_value, partial_coverage FROM platform_rollups
						WHERE period = 86400 AND start_at > ? ORDER BY start_at`), last.Add(-365*24*time.Hour).Unix())
					if err != nil {
						b.Fatal(err)
					}
					for rows.Next() {
					}
					rows.Close()
				}
			})
		})
	}
}

// scaleStart is the first run's time.
var scaleStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// fillScale writes hours hourly runs over games games.
func fillScale(b testing.TB, db *DB, dsn string, games, hours int) {
	rng := rand.New(rand.NewPCG(1, 2))
	players := make([]float64, games)
	for i := range players {
		players[i] = float64(rng.IntN(5000))
	}
	// The time of the runs after the first (which writes every member),
	// in all and in the steps that write the most.
	var later, entries, finish time.Duration
	defer func() {
		if n := time.Duration(hours - 1); n > 0 {
			b.Logf("runs after the first: %v a run, of which SaveEntries %v and FinishRun %v",
				(later / n).Round(time.Millisecond), (entries / n).Round(time.Millisecond), (finish / n).Round(time.Millisecond))
		}
	}()
	for h := range hours {
		start := time.Now()
		at := scaleStart.Add(time.Duration(h) * time.Hour)
		if h > 0 {
			changePlayers(rng, players)
		}
		saved, finished := scaleRun(b, db, rng, players, at)
		took := time.Since(start)
		if h > 0 {
			later += took
			entries += saved
			finish += finished
		}
		if testing.Verbose() { // each run, for the medians of bench/pg-scale.sh
			fmt.Fprintf(os.Stderr, "BenchmarkScale: run %d: %v, SaveEntries %v, FinishRun %v\n", h, took.Round(time.Millisecond),
				saved.Round(time.Millisecond), finished.Round(time.Millisecond))
		}
		if testing.Verbose() && h%24 == 23 {
			// A month of 100,000 games takes hours: say how far it got,
			// and the size, so that a fill stopped early still measured
			// something. Outside the run's time: the size is a query.
			fmt.Fprintf(os.Stderr, "BenchmarkScale: %s, %d games: %d of %d runs, the last in %v; %d bytes\n",
				db.d.name(), games, h+1, hours, took.Round(time.Millisecond), dbSize(b, db, dsn))
		}
	}
}

// changePlayers changes the players of a fifth of the games, drawn at
// random.
func changePlayers(rng *rand.Rand, players []float64) {
	for i := range players {
		if rng.IntN(5) == 0 {
			players[i] = float64(rng.IntN(5000))
		}
	}
}

// scaleRun is one hourly run at at over players, through the store's
// write path; it returns how long its SaveEntries and its FinishRun took.
func scaleRun(b testing.TB, db *DB, rng *rand.Rand, players []float64, at time.Time) (saved, finished time.Duration) {
	ctx := context.Background()
	r, err := db.BeginRun(ctx, "game", at)
	if err != nil {
		b.Fatal(err)
	}
	saving := time.Now()
	for lo := 0; lo < len(players); lo += 100 {
		if _, err := db.SaveEntries(ctx, r, scaleBatch(players, lo)); err != nil {
			b.Fatal(err)
		}
	}
	saved = time.Since(saving)
	if _, err := db.EndWalk(ctx, r); err != nil {
		b.Fatal(err)
	}
	if err := db.SaveActivity(ctx, r, scalePoints(rng, at), at); err != nil {
		b.Fatal(err)
	}
	finishing := time.Now()
	if err := db.FinishRun(ctx, r, OutcomeOK, at); err != nil {
		b.Fatal(err)
	}
	return saved, time.Since(finishing)
}

// scaleBatch is the entries of the games from lo on, a page of 100 at
// most.
func scaleBatch(players []float64, lo int) []Entry {
	batch := make([]Entry, 0, 100)
	for i := lo; i < min(lo+100, len(players)); i++ {
		p, peak, rating := players[i], 5000.0, float64(i%50)/10
		batch = append(batch, Entry{Key: Key{Kind: "game", Ident: "g" + strconv.Itoa(i)}, Players: &p,
			Raw: []byte(`{}`), ChangeKey: "k", Values: map[string]*float64{"players": &p, "playersPeak": &peak, "rating": &rating}})
	}
	return batch
}

// scalePoints is the platform's activity over the hour before at, a
// point every five minutes.
func scalePoints(rng *rand.Rand, at time.Time) []Point {
	var pts []Point
	for m := 0; m < 60; m += 5 {
		v := float64(100000 + rng.IntN(10000))
		pts = append(pts, Point{Time: at.Add(time.Duration(m-60) * time.Minute), Players: &v, Raw: []byte(`[]`)})
	}
	return pts
}

// scalePostgres is a new database on the server GAMEDATA_SCALE_PG names,
// or on the package's own server when it names none.
func scalePostgres(b *testing.B) string {
	admin := os.Getenv("GAMEDATA_SCALE_PG")
	if admin == "" {
		return pgtest.NewDatabase(b)
	}
	db, err := sql.Open("pgx", admin)
	if err != nil {
		b.Fatal(err)
	}
	name := fmt.Sprintf("scale_%d_%d", os.Getpid(), time.Now().UnixNano())
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		db.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		db.Close()
	})
	u, err := url.Parse(admin)
	if err != nil {
		b.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// dbSize is the database's size on disk: the SQLite file, or what
// PostgreSQL says of the database.
func dbSize(b testing.TB, db *DB, dsn string) int64 {
	if db.d.name() == "postgres" {
		var n int64
		if err := db.db.QueryRow(`SELECT pg_database_size(current_database())`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	fi, err := os.Stat(dsn)
	if err != nil {
		b.Fatal(err)
	}
	return fi.Size()
}
