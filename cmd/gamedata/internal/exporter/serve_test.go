package exporter

import (
	"context"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// serve runs e.Serve on a loopback port until the test ends or stop is
// called; stop returns Serve's error once it has returned.
func serve(t *testing.T, e *Exporter) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, ln) }()
	var stopped bool
	var serveErr error
	stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			serveErr = <-done
		}
		return serveErr
	}
	t.Cleanup(func() { _ = stop() })
	return ln.Addr().String(), stop
}

// leftovers returns the stacks of goroutines, other than the caller's,
// that run code of this package: what a stopped exporter must not leave.
// Only the running frames count, not the "created by" line: the goroutine
// serve starts may still be exiting (runtime.goexit) after it has handed
// Serve's result over, which is no leftover.
func leftovers() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	stacks := strings.Split(string(buf), "\n\n")
	var out []string
	for _, s := range stacks[1:] { // the first is the caller's
		frames, _, _ := strings.Cut(s, "\ncreated by ")
		if strings.Contains(frames, "/internal/exporter.") {
			out = append(out, s)
		}
	}
	return out
}

// TestServeStopsCleanly serves over a real listener, then cancels: Serve
// returns nil, the port is closed and no goroutine of the exporter is
// left.
func TestServeStopsCleanly(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	addr, stop := serve(t, e)
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /metrics: %s", resp.Status)
	}
	http.DefaultClient.CloseIdleConnections()
	if err := stop(); err != nil {
		t.Errorf("Serve after cancel: %v", err)
	}
	if left := leftovers(); len(left) > 0 {
		t.Errorf("goroutines left after Serve returned:\n%s", strings.Join(left, "\n\n"))
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Serve returned", addr)
	}
}

// TestServeFailsOnAClosedListener returns the server's error at once
// when it cannot serve, having stopped the poller.
func TestServeFailsOnAClosedListener(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	e, _, _ := newExporter(t, newClient(t, twin.URL), Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if err := e.Serve(context.Background(), ln); err == nil {
		t.Error("Serve on a closed listener: no error")
	}
	if left := leftovers(); len(left) > 0 {
		t.Errorf("goroutines left after Serve returned:\n%s", strings.Join(left, "\n\n"))
	}
}

// TestServeSaysWhenOffLoopback warns, naming the address, when the
// exporter listens where another machine can scrape it, unless its web
// configuration file asks for TLS and authentication both; on loopback
// it says nothing of the kind.
func TestServeSaysWhenOffLoopback(t *testing.T) {
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	p := newPKI(t, "gamedata test CA")
	const tlsOnly = "tls_server_config:\n  cert_file: gamedata.crt\n  key_file: gamedata.key\n"
	clientCerts := tlsOnly + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: " + p.caFile + "\n"
	for _, tc := range []struct {
		name, listen string
		web          func(t *testing.T) string // the file's path, or ""
		warns        bool
	}{
		{"loopback", "127.0.0.1:0", noWebConfig, false},
		{"beyond loopback", "0.0.0.0:0", noWebConfig, true},
		{"TLS and basic auth", "0.0.0.0:0", func(t *testing.T) string { path, _ := webFile(t, p, "a password", nil); return path }, false},
		{"TLS and client certificates", "0.0.0.0:0", func(t *testing.T) string { return webConfigFile(t, p, clientCerts) }, false},
		{"TLS alone", "0.0.0.0:0", func(t *testing.T) string { return webConfigFile(t, p, tlsOnly) }, true},
		{"basic auth alone", "0.0.0.0:0", func(t *testing.T) string {
			return webConfigFile(t, p, "basic_auth_users:\n  prometheus: "+hash(t, "a password")+"\n")
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, logs, _ := newExporter(t, newClient(t, twin.URL), Config{WebConfigFile: tc.web(t)})
			ln, err := net.Listen("tcp", tc.listen)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // Serve logs where it listens before it looks at ctx
			if err := e.Serve(ctx, ln); err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(logs.String(), "level=WARN msg=\"listening beyond loopback")
			if warned != tc.warns {
				t.Errorf("warned %v, want %v:\n%s", warned, tc.warns, logs)
			}
			if tc.warns && !strings.Contains(logs.String(), "address="+ln.Addr().String()) {
				t.Errorf("the warning does not name %s:\n%s", ln.Addr(), logs)
			}
		})
	}
}

func noWebConfig(*testing.T) string { return "" }
