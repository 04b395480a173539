package collect

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/require"
)

// BenchmarkSecondRun is the cost of a run over an unchanged platform,
// after a first run that fetched everything: the requests the twin
// counted (requests/run), the body bytes it sent, the time those
// requests take at the default rate of 5 a second (s@5/s), and, for
// comparison, the requests of the first sync, which fetched every record
// and report every run (2N + 3 for N games). The time of the loop is the
// run against the in-process twin, without a rate limit.
//
// The platform-sized catalogue (100,000 packages) takes minutes and
// gigabytes for its first run; it runs only with
// GAMEDATA_BENCH_PLATFORM=1:
//
//	GAMEDATA_BENCH_PLATFORM=1 go test -run '^$' -bench SecondRun -benchtime 3x ./internal/collect/
func BenchmarkSecondRun(b *testing.B) {
	for _, size := range []int{gamedatatest.DefaultPackages, 100000} {
		b.Run("packages="+strconv.Itoa(size), func(b *testing.B) {
			if size > gamedatatest.DefaultPackages && os.Getenv("GAMEDATA_BENCH_PLATFORM") == "" {
				b.Skip("set GAMEDATA_BENCH_PLATFORM=1 for the platform-sized catalogue: its first run takes minutes and gigabytes")
			}
			ctx := context.Background()
			twin := gamedatatest.NewServer(gamedatatest.WithSize(size, gamedatatest.DefaultServers, gamedatatest.DefaultOrganizations))
			defer twin.Close()
			games := len(twin.Catalog().Entries(url.Values{"kind": {"game"}}))
			c := newClient(b, twin, filepath.Join(b.TempDir(), "http"))
			db, _ := openDB(b, filepath.Join(b.TempDir(), "g.sqlite"))
			t0 := time.Now()
			first, err := Run(ctx, c, db, options("game", "7d", at(start)))
			require.NoError(b, err)
			b.Logf("%d games; run 1: %d requests in %s", games, first.Requests, time.Since(t0).Round(time.Second))
			n := len(twin.Requests())
			runs := 0
			for b.Loop() {
				runs++
				s, err := Run(ctx, c, db, options("game", "7d", at(start.Add(time.Duration(runs)*time.Hour))))
				require.NoError(b, err)
				require.Zero(b, s.Added, "nothing changed")
			}
			reqs := twin.Requests()[n:]
			perRun := float64(len(reqs)) / float64(runs)
			b.ReportMetric(perRun, "requests/run")
			b.ReportMetric(float64(bodyBytes(reqs))/float64(runs), "bodyB/run")
			b.ReportMetric(perRun/5, "s@5/s")
			b.ReportMetric(float64(2*games+3), "firstsync-requests/run")
		})
	}
}
