package exporter

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// e2eGuard bounds the wait for Prometheus's scrapes: a guard against a
// hang, not a measure. Prometheus hands its static targets to the scrape
// loop on its discovery tick, about 5 s after it starts.
const e2eGuard = 60 * time.Second

// TestPrometheusScrapes serves the exporter on loopback, starts a real
// Prometheus server that scrapes it, waits for a scrape it took in full,
// and asks Prometheus's query API for a game's players: the twin's value.
func TestPrometheusScrapes(t *testing.T) {
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed; apt-get install -y prometheus to run this end-to-end test")
	}
	twin := newTwin(t, gamedatatest.WithSize(30, 0, 3))
	game := firstWithPlayers(t, twin)
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{Kinds: []string{game.Kind}, Every: time.Hour})
	poll(t, e) // the first scrape already has the data

	scrapes := signalScrapes(e)
	target, stop := serve(t, e)

	promAddr := freePort(t)
	exited := startPrometheus(t, bin, target, promAddr)
	at := scrapedInFull(t, promAddr, scrapes, exited, 1, e2eGuard)
	checkStoredPlayers(t, promAddr, game, at)

	// docs/exporter.md's top-N query, titles joined from the info series.
	top := twin.Catalog().Entries(url.Values{"kind": {game.Kind}, "sort": {"players"}})[:3]
	got := queryAt(t, promAddr, fmt.Sprintf(`topk(3, gamedata_package_players{kind=%q})
		* on (kind, ident) group_left (title) gamedata_package_info`, game.Kind), at)
	slices.SortFunc(got, func(a, b sample) int { return cmp.Compare(b.value, a.value) })
	if len(got) != len(top) {
		t.Fatalf("top 3: %v", got)
	}
	for i, g := range top {
		if got[i].value != g.Players.Value {
			t.Errorf("top %d: %v, want %v players", i+1, got[i], g.Players.Value)
		}
		// Equal counts may come in either order: the title is checked
		// against the game each sample names.
		j := slices.IndexFunc(top, func(e gamedatatest.Entry) bool { return e.Ident == got[i].labels["ident"] })
		if j < 0 || got[i].labels["title"] != gamedata.NewUntrusted(top[j].Name).String() {
			t.Errorf("top %d: %v, not a top game with its title", i+1, got[i])
		}
	}
	if err := stop(); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// checkStoredPlayers checks that Prometheus, asked for game's players at
// at, answers the twin's value.
func checkStoredPlayers(t *testing.T, promAddr string, game gamedatatest.Entry, at time.Time) {
	t.Helper()
	got := queryAt(t, promAddr, fmt.Sprintf(`gamedata_package_players{kind=%q,ident=%q}`, game.Kind, game.Ident), at)
	if len(got) != 1 || got[0].value != game.Players.Value {
		t.Errorf("Prometheus has %s/%s at %v, the twin at %v players", game.Kind, game.Ident, got, game.Players.Value)
	}
}

// signalScrapes makes e's handler say, on the channel it returns, each
// scrape of /metrics it has answered; scrapes beyond the channel's buffer
// are not said.
func signalScrapes(e *Exporter) <-chan struct{} {
	scrapes := make(chan struct{}, 64)
	e.wrap = func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r)
			if r.URL.Path == "/metrics" {
				select {
				case scrapes <- struct{}{}:
				default:
				}
			}
		})
	}
	return scrapes
}

// scrapedInFull waits, scrape by scrape, until Prometheus has taken n
// scrapes of the exporter in full within window up to the latest one it
// took in full, and returns that one's time: queried at it, Prometheus
// answers with what that scrape read, whatever the scrapes after it do.
//
// Counting the scrapes that reach the exporter is not enough: on a loaded
// machine a scrape can outlast scrape_timeout, and Prometheus then
// records up 0 and marks the exporter's series stale. Prometheus commits
// a scrape before it begins the next, so each scrape that reaches the
// exporter is the moment to read up's samples again.
func scrapedInFull(t *testing.T, promAddr string, scrapes <-chan struct{}, exited <-chan error, n int, window time.Duration) time.Time {
	t.Helper()
	guard := time.NewTimer(e2eGuard)
	defer guard.Stop()
	for k := 1; ; k++ {
		select {
		case <-scrapes:
		case err := <-exited:
			t.Fatalf("prometheus exited before scrape %d: %v", k, err)
		case <-guard.C:
			t.Fatalf("%d scrapes from prometheus within %v, and not %d of them in full within %v", k-1, e2eGuard, n, window)
		}
		now := time.Now()
		got := queryRange(t, promAddr, `up{job="gamedata"}[1h]`, now, now, 0)
		if len(got) != 1 || len(got[0].samples) == 0 {
			continue
		}
		ups := got[0].samples
		last := ups[len(ups)-1]
		if last.v != 1 {
			continue
		}
		full := 0
		for _, s := range ups {
			if s.v == 1 && s.ms > last.ms-window.Milliseconds() {
				full++
			}
		}
		if full >= n {
			return time.UnixMilli(last.ms)
		}
	}
}

// freePort returns a loopback address that was free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startPrometheus starts bin with a scrape config for target, its data in
// a temporary directory (unless flags name one) and its web API on addr,
// and flags after its own; it is stopped when the test ends. The channel
// receives its exit.
func startPrometheus(t *testing.T, bin, target, addr string, flags ...string) <-chan error {
	t.Helper()
	config := fmt.Sprintf(`global:
  scrape_interval: 250ms
  scrape_timeout: 200ms
scrape_configs:
  - job_name: gamedata
    static_configs:
      - targets: [%q]
`, target)
	return startPrometheusWith(t, bin, config, addr, flags...)
}

// startPrometheusWith is startPrometheus with a configuration of the
// test's own.
func startPrometheusWith(t *testing.T, bin, config, addr string, flags ...string) <-chan error {
	t.Helper()
	dir := t.TempDir()
	configFile := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(configFile, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	args := []string{"--config.file=" + configFile, "--web.listen-address=" + addr, "--log.level=warn"}
	if !slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "--storage.tsdb.path=") }) {
		args = append(args, "--storage.tsdb.path="+filepath.Join(dir, "data"))
	}
	cmd := exec.Command(bin, append(args, flags...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("prometheus said:\n%s", out.String())
		}
	})
	return exited
}

// sample is one series of an instant query's answer.
type sample struct {
	labels map[string]string
	value  float64
}

// queryAt asks Prometheus's HTTP API for an instant query at the time at.
func queryAt(t *testing.T, addr, q string, at time.Time) []sample {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v := url.Values{"query": {q}, "time": {strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64)}}
	u := "http://" + addr + "/api/v1/query?" + v.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Status, Error string
		Data          struct {
			Result []struct {
				Metric map[string]string
				Value  [2]any
			}
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("query %s: %s: %v", q, resp.Status, err)
	}
	if body.Status != "success" {
		t.Fatalf("query %s: %s, %s", q, body.Status, body.Error)
	}
	var out []sample
	for _, r := range body.Data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %v: %v", q, r.Value, err)
		}
		out = append(out, sample{labels: r.Metric, value: v})
	}
	return out
}

// syncBuffer is a bytes.Buffer that a process writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
