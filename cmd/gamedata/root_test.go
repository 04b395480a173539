package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// --cache-dir's help suggests a directory under the user's cache
// directory, never one under the shared temporary directory.
func TestCacheDirHelp(t *testing.T) {
	t.Parallel()
	dir, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no user cache directory here (%v): set HOME or XDG_CACHE_HOME", err)
	}
	code, out, errOut := cli(t, "http://unused.invalid", "help", "get")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, filepath.Join(dir, "gamedata"))
	if !strings.HasPrefix(dir, os.TempDir()) { // XDG_CACHE_HOME may itself be under it, as on a CI machine's throwaway home
		assert.NotContains(t, out, os.TempDir())
	}
}

// Bad usage exits 2 and a failure 1, each with one line on stderr that
// says what was wrong.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"bogus"}, 2, `unknown command "bogus" for "gamedata"; "gamedata help" lists the commands`},
		{[]string{"lsit"}, 2, `did you mean "list"?`},
		{[]string{"list", "--page-size", "x"}, 2, `list --page-size "x": want a whole number`},
		{[]string{"list", "--rate", "x"}, 2, `list --rate "x": want a number`},
		{[]string{"list", "--timeout", "5"}, 2, `list --timeout "5": want a duration, such as 30s, 5m or 1h30m`},
		{[]string{"list", "--all=maybe"}, 2, `list --all "maybe": want true or false`},
		{[]string{"list", "-o"}, 2, `list -o: give it a value; "gamedata help list" says what it takes`},
		{[]string{"list", "--page-size"}, 2, `list --page-size: give it a value; "gamedata help list" says what it takes`},
		{[]string{"list", "-o", "yaml"}, 2, `-o "yaml"`},
		{[]string{"get", "package", "nokind"}, 2, "want KIND/IDENT"},
		{[]string{"get", "thing", "x"}, 2, `get "thing"`},
		{[]string{"list", "--page-size", "500"}, 2, "list --page-size 500: want 1 to 100, or 0 for the service's default"},
		{[]string{"prune", "--base-url", "x"}, 2, `unknown flag: --base-url: prune does not take it; "gamedata help prune" lists the flags it takes`},
		{[]string{"--twin", "list"}, 2, "unknown flag: --twin: a command's flag goes after its name, such as: gamedata activity --twin"},
		{[]string{"-z", "list"}, 2, `unknown shorthand flag: 'z' in -z: no command takes it; "gamedata help COMMAND" lists the flags each takes`},
		{[]string{"export", "--resume"}, 2, "--resume needs --out"},
		{[]string{"chart", "activity"}, 2, "--term"},
		{[]string{"get", "package", "game/no-such-game"}, 1, "no package game/no-such-game on the service (404)"},
		{[]string{"--rate", "NaN", "list"}, 2, "--rate NaN"},
		{[]string{"--rate", "Inf", "list"}, 2, "--rate +Inf"},
		{[]string{"--rate", "-1", "list"}, 2, "--rate -1"},
		{[]string{"help", "nosuch"}, 2, `help nosuch: no such command`},
		{[]string{"search"}, 2, "search: want a QUERY, such as: gamedata search miner"},
		{[]string{"search", " "}, 2, "search: want a QUERY"},
		{[]string{"search", "a", "b"}, 2, "search: want one QUERY (quote a query of several words), got 2"},
		{[]string{"help", "get", "extra"}, 2, `help get extra: no such command`},
	} {
		before := len(twin.Requests())
		code, out, errOut := cli(t, twin.URL, tt.args...)
		assert.Equal(t, tt.code, code, "%v: %s", tt.args, errOut)
		assert.True(t, strings.HasPrefix(errOut, "gamedata: "), errOut)
		assert.Contains(t, errOut, tt.says, "%v", tt.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %q", tt.args, errOut)
		if tt.code == 2 {
			assert.Empty(t, out, "%v", tt.args)
			assert.Len(t, twin.Requests(), before, "%v: refused before any request", tt.args)
		}
	}
}

// --version says what the program is; version.Of's tests say how.
func TestVersion(t *testing.T) {
	t.Parallel()
	code, out, errOut := cli(t, "http://unused.invalid", "--version")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `^gamedata version \S+ \(.*go1\.\d+`, out)
}

// Every line on stderr begins "gamedata: " and says it once, whatever
// error it quotes: the library's begin so themselves.
func TestOnePrefix(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	refused := fixed(t, map[string]answer{"/api/dashboard": {status: 400, body: `{"error":"no"}`}})
	for _, tt := range []struct {
		base string
		args []string
	}{
		{twin.URL, []string{"list", "extra"}},
		{twin.URL, []string{"get", "package", "game/nope"}},
		{twin.URL, []string{"get", "package", "game/.."}},
		{refused, []string{"list", "--all"}},
		{refused, []string{"export", "-o", "csv", "--out", filepath.Join(t.TempDir(), "x.csv")}},
	} {
		code, _, errOut := cli(t, tt.base, tt.args...)
		assert.NotEqual(t, 0, code, "%v", tt.args)
		for _, l := range strings.Split(strings.TrimRight(errOut, "\n"), "\n") {
			assert.True(t, strings.HasPrefix(l, "gamedata: "), "%v: %q", tt.args, l)
			assert.Equal(t, 1, strings.Count(l, "gamedata:")+strings.Count(l, "gamedata list:"), "%v: %q", tt.args, l)
		}
	}
}

// --twin with a base URL says that --twin won, and which base URL it
// passed over.
func TestTwinWins(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"list", "--base-url", "http://127.0.0.1:9", "--twin", "--page-size", "1"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Regexp(t, `^gamedata: --twin given: using the in-process twin of the service \(gamedatatest\) at http://127\.0\.0\.1:\d+, not --base-url http://127\.0\.0\.1:9\n$`, stderr.String())
	assert.Len(t, ndjson(t, stdout.String()), 1)
}

// The base URL --twin passed over is said without the secrets it may
// carry: its user information and its query values.
func TestTwinNoticeSaysNoSecret(t *testing.T) {
	t.Parallel()
	const secret = "KvSecret7"
	for _, base := range []string{"http://gd:" + secret + "@127.0.0.1:9/", "http://127.0.0.1:9/?token=" + secret} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"list", "--base-url", base, "--twin", "--page-size", "1"}, &stdout, &stderr)
		require.Equal(t, 0, code, stderr.String())
		assert.Contains(t, stderr.String(), "not --base-url http://", base)
		assert.NotContains(t, stderr.String()+stdout.String(), secret, base)
	}
}

// overlong is a service whose every answer is a body longer than its
// Content-Length: a raw listener, since net/http's server refuses to
// write past the length it declared.
func overlong(t *testing.T, body, extra string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for {
					if _, err := http.ReadRequest(r); err != nil {
						return
					}
					fmt.Fprintf(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s%s", len(body), body, extra)
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// The standard library's own log (net/http's "Unsolicited response
// received on idle HTTP channel" for a body longer than its
// Content-Length) never reaches the user raw: the command routes the
// standard logger away from stderr, which carries its own lines only.
func TestStandardLogIsNotShown(t *testing.T) {
	t.Parallel()
	base := overlong(t, `{"kind":"game","ident":"x"}`, "HTTP/1.1 200 OK\r\n\x1b[31mextra")
	code, out, errOut := cli(t, base, "get", "package", "game/x", "-o", "json")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, `"ident":"x"`)
	assert.Empty(t, errOut)
	assert.Equal(t, io.Discard, log.Writer(), "net/http logs through the standard logger, at any time")
}
