package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bad flags exit 2 with one line that says what was wrong, before
// anything starts: no client, no twin, no listener.
func TestExporterBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--listen", "127.0.0.1:99999"}, `--listen "127.0.0.1:99999": invalid port 99999`},
		{[]string{"--listen", "127.0.0.1:-1"}, "invalid port -1"},
		{[]string{"--listen", "9877"}, "want HOST:PORT"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"exporter"}, tc.args...), &stdout, &stderr)
			assert.Equal(t, 2, code, stderr.String())
			assert.Contains(t, stderr.String(), tc.says)
		})
	}
	for _, args := range [][]string{
		{"--every", "0"},
		{"--every", "-1m"},
		{"--max-series", "0"},
		{"--top", "-3"},
		{"--package", "neon-harbor"},
		{"--package", "game/.."},
		{"--server", ""},
		{"--kind", ""},
		{"--listen", "9877"},
		{"--listen", "127.0.0.1:0", "extra"},
		{"--no-such-flag"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"exporter"}, args...), &stdout, &stderr)
			assert.Equal(t, 2, code, stderr.String())
			assert.Empty(t, stdout.String())
			assert.NotContains(t, stderr.String(), "in-process twin", "nothing starts on bad flags")
			assert.NotContains(t, stderr.String(), "serving", "nothing starts on bad flags")
			assert.Contains(t, stderr.String(), "gamedata: ")
		})
	}
}

// The exporter serves on --listen what it polled, and a cancelled context
// (SIGTERM or Ctrl-C in main) stops it with status 0.
func TestExporterServesAndStops(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	stderr := newLineWriter()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--base-url", twin.URL, "--rate", "0", "exporter", "--listen", "127.0.0.1:0",
			"--kind", "game", "--every", "1h"}, &stdout, stderr)
	}()

	var addr string
	hang := guard(t)
	for polled := false; addr == "" || !polled; {
		select {
		case line := <-stderr.lines:
			if m := regexp.MustCompile(`address=(\S+)`).FindStringSubmatch(line); m != nil {
				addr = m[1]
			}
			polled = polled || strings.Contains(line, "poll succeeded")
		case code := <-done:
			t.Fatalf("exporter exited %d: %s", code, stderr.String())
		case <-hang.Done():
			t.Fatalf("no first poll: %s", stderr.String())
		}
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "\ngamedata_up 1\n")
	assert.Contains(t, string(body), `gamedata_package_players{ident="`)

	cancel()
	assert.Equal(t, 0, <-done, stderr.String())
	assert.Contains(t, stderr.String(), "msg=stopped")
	assert.Empty(t, stdout.String())
}

// A --kind the service does not list (the twin normalizes it to its
// default directory) ends the exporter at its first poll, status 1, with
// one line naming the flag, rather than exporting another slice.
func TestExporterUnknownKind(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ctx, cancel := context.WithCancel(guard(t))
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"--base-url", twin.URL, "--rate", "0", "exporter", "--listen", "127.0.0.1:0",
		"--kind", "gmae", "--every", "1h"}, &stdout, &stderr)
	assert.Equal(t, 1, code, stderr.String())
	assert.Empty(t, stdout.String())
	assert.Contains(t, stderr.String(), "\ngamedata: exporter --kind \"gmae\": the service does not list that kind")
}

// A password or token that comes in --base-url (its userinfo, its query,
// a URL that does not even parse) or in --listen is never said: not on
// stdout, not on stderr, whichever way the exporter fails.
func TestExporterNeverSaysTheSecret(t *testing.T) {
	t.Parallel()
	const secret = "KvSecret7"
	for _, args := range [][]string{
		{"--base-url", "http://gd:" + secret + "@127.0.0.1:1", "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://127.0.0.1:1/?password=" + secret, "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://127.0.0.1:1/?sslpassword=" + secret + "&user=gd", "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://127.0.0.1:1/#" + secret, "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "ftp://gd:" + secret + "@127.0.0.1:1/", "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://gd:" + secret + "%zz@127.0.0.1:1/", "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://gd:" + secret + "@", "exporter", "--listen", "127.0.0.1:0"},
		{"--base-url", "http://gd:" + secret + "@127.0.0.1:1", "exporter", "--listen", "127.0.0.1:99999"},
		{"exporter", "--listen", "gd:" + secret + "@127.0.0.1:9877"},
		{"exporter", "--listen", "http://gd:" + secret + "@127.0.0.1:9877"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(guard(t), append([]string{"--rate", "0"}, args...), &stdout, &stderr)
			assert.NotEqual(t, 0, code)
			assert.Contains(t, stderr.String(), "gamedata: ")
			assert.NotContains(t, stdout.String()+stderr.String(), secret)
		})
	}
}

// An exporter polling a closed loopback port every second, with the
// command's retries, says in its log that the connection was refused
// there and what to check, not that the service is slow: the poll's
// deadline passes while the client waits to retry.
func TestExporterSaysConnectionRefused(t *testing.T) {
	t.Parallel()
	const addr = "127.0.0.1:1" // nothing listens there, as in TestExporterNeverSaysTheSecret
	ctx, cancel := context.WithCancel(guard(t))
	defer cancel()
	stderr := newLineWriter()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"--base-url", "http://" + addr, "exporter", "--listen", "127.0.0.1:0",
			"--kind", "game", "--every", "1s"}, io.Discard, stderr)
	}()
	for line := ""; !strings.Contains(line, "poll failed"); {
		line = stderr.next(t, ctx)
		assert.NotContains(t, line, "slow or stalled")
		if strings.Contains(line, "poll failed") {
			assert.Contains(t, line, `error="connection refused at `+addr+`: is the service up, and is --base-url right?`)
		}
	}
	cancel()
	assert.Equal(t, 0, <-done, stderr.String())
}

// A --web.config.file that would not serve ends the exporter with status
// 1 and one line naming the file and what is wrong, before it listens
// (the --listen given is busy: that is not what is said) or asks the
// service anything, and without the password written in it.
func TestExporterBadWebConfig(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	const secret = "KvSecret7-in-clear"
	dir := t.TempDir()
	bad := filepath.Join(dir, "web.yml")
	require.NoError(t, os.WriteFile(bad, []byte("basic_auth_users:\n  prometheus: "+secret+"\n"), 0o600))
	for _, tc := range []struct{ file, says string }{
		{filepath.Join(dir, "missing.yml"), "no such file or directory"},
		{bad, "a password under basic_auth_users is not a bcrypt hash"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(guard(t), []string{"--base-url", "http://127.0.0.1:1", "exporter", "--listen", busy.Addr().String(),
				"--web.config.file", tc.file}, &stdout, &stderr)
			assert.Equal(t, 1, code, stderr.String())
			assert.True(t, strings.HasPrefix(stderr.String(), "gamedata: exporter --web.config.file "+tc.file+": "), stderr.String())
			assert.Contains(t, stderr.String(), tc.says)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
			assert.NotContains(t, stderr.String(), "serving")
			assert.NotContains(t, stdout.String()+stderr.String(), secret[:5])
		})
	}
}
