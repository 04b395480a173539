package exporter

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestPromtoolCheckMetrics runs Prometheus's own linter over the
// exposition of the twin, awkward idents, hostile titles and servers
// included, and over the hostile directory's.
func TestPromtoolCheckMetrics(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed; apt-get install -y prometheus (Debian's package ships it) to run this test")
	}
	twin := newTwin(t, gamedatatest.WithSize(60, 20, 5), gamedatatest.WithAwkwardIdents())
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/dashboard" {
			w.Write([]byte(hostileDirectory))
			return
		}
		w.Write([]byte(`{"points": []}`))
	}))
	t.Cleanup(hostile.Close)
	for _, tc := range []struct {
		name, url string
		cfg       Config
	}{
		{"twin", twin.URL, Config{Kinds: []string{"game", "mod", "tool", "server"}}},
		{"hostile", hostile.URL, Config{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _, _ := newExporter(t, newClient(t, tc.url), tc.cfg)
			poll(t, e)
			code, body := scrape(t, e, "/metrics")
			if code != http.StatusOK {
				t.Fatalf("GET /metrics: %d", code)
			}
			cmd := exec.Command(promtool, "check", "metrics")
			cmd.Stdin = strings.NewReader(body)
			if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
				t.Errorf("promtool check metrics: %v\n%s", err, out)
			}
		})
	}
}
