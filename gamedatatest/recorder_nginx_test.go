package gamedatatest_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// nginxConf is the configuration of the reverse proxy in front of a twin:
// gzip on for JSON, a limit of 5 requests a second for each URL answered
// 429, and nginx's own HTML pages for a 429 and for the twin's 404s. Its
// worker runs as the test's user, so that it reads the test's files
// (nginx ignores the user directive unless it runs as root). A master
// process it keeps: without one, nginx 1.22 crashes on a socket it
// inherits.
const nginxConf = `daemon off;
user {{user}};
pid {{dir}}/nginx.pid;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path {{dir}}/body;
	proxy_temp_path {{dir}}/proxy;
	fastcgi_temp_path {{dir}}/fastcgi;
	uwsgi_temp_path {{dir}}/uwsgi;
	scgi_temp_path {{dir}}/scgi;
	limit_req_zone $request_uri zone=perurl:1m rate=5r/s;
	server {
		listen {{addr}};
		gzip on;
		gzip_types application/json;
		gzip_min_length 0;
		error_page 429 /429.html;
		error_page 404 /404.html;
		location = /429.html { internal; root {{dir}}/html; }
		location = /404.html { internal; root {{dir}}/html; }
		location / {
			limit_req zone=perurl;
			limit_req_status 429;
			proxy_intercept_errors on;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_pass {{upstream}};
		}
	}
}
`

// The pages nginx answers with, in place of the twin's and its own.
const (
	nginx429 = "<html><body><h1>429</h1><p>nginx: slow down</p></body></html>\n"
	nginx404 = "<html><body><h1>404</h1><p>nginx: nothing here</p></body></html>\n"
)

// startNginx starts Debian's nginx as a reverse proxy of upstream on a
// loopback port, stopped when the test ends, and returns its URL. The test
// listens on the port itself and hands the socket to nginx (its NGINX
// variable, as for an upgrade of its binary): connections wait in the
// socket's queue until nginx accepts them, so nothing waits for nginx to
// be ready, and no other process can take the port meanwhile. It skips
// the test, saying how to install nginx, when it is not installed.
func startNginx(t *testing.T, upstream string) string {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			t.Skip("nginx is not installed: apt-get install -y nginx (Debian's package; the test starts a server of its own)")
		}
		bin = "/usr/sbin/nginx"
	}
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "html"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "html", "429.html"), []byte(nginx429), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "html", "404.html"), []byte(nginx404), 0o644))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close() // nginx holds its own copy
	sock, err := ln.(*net.TCPListener).File()
	require.NoError(t, err)
	defer sock.Close()
	me, err := user.Current()
	require.NoError(t, err)
	conf := strings.NewReplacer("{{user}}", me.Username, "{{dir}}", dir, "{{addr}}", ln.Addr().String(), "{{upstream}}", upstream).Replace(nginxConf)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644))

	cmd := exec.Command(bin, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-e", filepath.Join(dir, "error.log"))
	cmd.ExtraFiles = []*os.File{sock} // fd 3
	cmd.Env = append(os.Environ(), "NGINX=3;")
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGQUIT)
		cmd.Wait()
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "error.log")); err == nil {
				t.Logf("nginx's error log:\n%s", b)
			}
		}
	})
	return "http://" + ln.Addr().String()
}

// Recording through nginx in front of the twin keeps the bodies decoded,
// whether the transport or the caller asked for gzip, keeps no
// Content-Encoding, leaves out the 429 (nginx's HTML page) that a retry
// recovered from, and keeps nginx's HTML 404.
func TestRecordingThroughNginx(t *testing.T) {
	t.Parallel()
	twin := gamedatatest.NewServer(gamedatatest.WithSize(25, 0, 0))
	defer twin.Close()
	proxy := startNginx(t, twin.URL)
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	path := harPath(t)
	rec := openRecording(t, path, gamedatatest.ModeOnce)
	throttled := 0
	c := clientThrough(t, proxy, rec.Transport(transport),
		gamedata.WithBackoff(500*time.Millisecond, time.Second), // at least nginx's 200 ms between two requests of a URL
		gamedata.WithHooks(gamedata.Hooks{OnThrottle: func(context.Context, gamedata.ThrottleEvent) { throttled++ }}))
	ctx := context.Background()

	ref := packagesOf(twin, 1)[0]
	pkg := "/api/packages/" + ref.Kind + "/" + ref.Ident
	// Spend the package URL's allowance, so that the client's first
	// attempt, right after, is throttled.
	status, _, _ := getRaw(t, transport, proxy, pkg, nil)
	require.Equal(t, http.StatusOK, status)
	_, err := c.Packages.Get(ctx, ref.Kind, ref.Ident)
	require.NoError(t, err)
	require.Positive(t, throttled, "nginx throttled the client's first attempt")

	games := len(twin.Catalog().Entries(map[string][]string{"kind": {"game"}}))
	walked := 0
	for _, err := range c.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: gamedata.KindGame, ListOptions: gamedata.ListOptions{PageSize: 7}}, nil) {
		require.NoError(t, err)
		walked++
	}
	assert.Equal(t, games, walked)

	_, err = c.Packages.Get(ctx, "game", "no-such-game")
	require.ErrorIs(t, err, gamedata.ErrNotFound)

	// A caller that asks for gzip itself gets it as nginx sent it.
	req, err := http.NewRequest(http.MethodGet, proxy+"/api/search?q=a", nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := (&http.Client{Transport: rec.Transport(transport)}).Do(req)
	require.NoError(t, err)
	_, err = io.Copy(io.Discard, resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, "gzip", resp.Header.Get("Content-Encoding"), "nginx compressed the body")

	require.NoError(t, rec.Save())
	byKey := map[string]harEntry{}
	for _, e := range readEntries(t, path) {
		assert.NotEqual(t, http.StatusTooManyRequests, e.Response.Status, e.MatchKey)
		assert.Empty(t, e.header("Content-Encoding"), e.MatchKey)
		assert.Empty(t, e.Response.Content.Encoding, "%s: a text body is stored as text", e.MatchKey)
		byKey[e.MatchKey] = e
	}
	assert.Len(t, byKey, 1+(games+6)/7+1+1, "the package, the pages, the 404 and the search")
	assert.Equal(t, string(twin.Catalog().Package(ref.Kind, ref.Ident)), byKey["GET "+pkg].Response.Content.Text)
	assert.Equal(t, string(twin.Catalog().Search("a")), byKey["GET /api/search?q=a"].Response.Content.Text)
	page2 := byKey["GET /api/dashboard?kind=game&page=2&pageSize=7"]
	assert.Contains(t, page2.Response.Content.Text, `"page":2`)
	missing := byKey["GET /api/packages/game/no-such-game"]
	assert.Equal(t, http.StatusNotFound, missing.Response.Status)
	assert.Equal(t, nginx404, missing.Response.Content.Text)
	assert.Contains(t, missing.Response.Content.MimeType, "text/html")
}
