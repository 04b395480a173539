package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// api --paginate prints one document, however many pages the directory
// has: --jq runs once, on it, so .items|length is the directory's size,
// printed once (gh runs --jq a page at a time: cli/cli#10459).
func TestAPIPaginateRunsJQOnce(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := len(twinGames(twin))
	orgs := len(twin.Catalog().OrganizationEntries(nil))
	require.Greater(t, games, 20, "more games than the service's default page holds")
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"api", "/api/dashboard?kind=game", "--paginate", "--jq", ".items|length"}, games},
		{[]string{"api", "/api/dashboard", "-f", "kind=game", "-f", "pageSize=7", "--paginate", "--jq", ".items|length"}, games},
		{[]string{"api", "/api/organizations?pageSize=2", "--paginate", "--jq", ".items|length"}, orgs},
	} {
		code, out, errOut := cli(t, twin.URL, tt.args...)
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, fmt.Sprintf("%d\n", tt.want), out, "%v", tt.args)
	}
}

// The document --paginate prints is the first page's envelope with every
// entry of the walk, each once and as the twin serves it, in place of
// its items, and a pagination that says it holds every page from the
// first asked for.
func TestAPIPaginateMergesEveryPage(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twinGames(twin)
	for _, tt := range []struct {
		page, skip int
	}{
		{1, 0},
		{3, 14},
	} {
		code, out, errOut := cli(t, twin.URL, "api", "/api/dashboard?kind=game", "-f", "pageSize=7", "-f", fmt.Sprintf("page=%d", tt.page), "--paginate")
		require.Equal(t, 0, code, errOut)
		assert.Equal(t, 1, strings.Count(out, "\n"), "one document, on one line in a pipe")
		var doc struct {
			Kind       string
			Items      []json.RawMessage
			Pagination map[string]any
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		want := games[tt.skip:]
		require.Len(t, doc.Items, len(want), "page %d on", tt.page)
		seen := map[string]bool{}
		for i, item := range doc.Items {
			assert.JSONEq(t, string(want[i].JSON()), string(item), "entry %d", i)
			var id struct{ Kind, Ident string }
			require.NoError(t, json.Unmarshal(item, &id))
			assert.False(t, seen[id.Kind+"/"+id.Ident], "%s/%s is there once", id.Kind, id.Ident)
			seen[id.Kind+"/"+id.Ident] = true
		}
		pages := (len(games) + 6) / 7
		assert.Equal(t, "game", doc.Kind, "the envelope's other members are the first page's")
		assert.Equal(t, map[string]any{"hasNext": false, "firstPage": float64(tt.page), "lastPage": float64(pages),
			"pageSize": 7.0, "total": float64(len(games)), "totalPages": float64(pages)}, doc.Pagination)
	}
}

// A page after the first that the service redirects ends the SDK's walk
// without an error: the directory shrank while it was read, and entries
// may have moved to pages already read. api --paginate then fails rather
// than print a document whose pagination says it is whole. The twin's
// directory shrinks at the first request for page 2, before it is
// answered: a hand handler, because only the moment between two pages
// makes the case.
func TestAPIPaginateRefusesADirectoryThatShrank(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	var once sync.Once
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/dashboard" && r.URL.Query().Get("page") == "2" {
			once.Do(func() {
				for _, e := range twin.Catalog().Packages[:15] {
					assert.NoError(t, twin.RemovePackage(e.Kind, e.Ident))
				}
			})
		}
		twin.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	require.Len(t, twin.Catalog().Packages, 40)
	code, out, errOut := cli(t, s.URL, "api", "/api/dashboard?pageSize=30", "--paginate")
	assert.Equal(t, 1, code)
	assert.Empty(t, out, "no document that says it is whole")
	assert.Equal(t, "gamedata: api /api/dashboard --paginate: page 2 was redirected after the page before it said more followed: "+
		"the directory shrank while it was read, so entries may be missing; run it again\n", errOut)
}

// Each path is read through the SDK's call for it and printed as the
// twin serves it; an identifier escaped in PATH is the record's.
func TestAPIReadsEachPath(t *testing.T) {
	t.Parallel()
	twin := newTwin(t, gamedatatest.WithAwkwardIdents())
	cat := twin.Catalog()
	srv, org := cat.Servers[0], cat.Organizations[0]
	for _, tt := range []struct {
		path string
		want json.RawMessage
	}{
		{"/api/packages/game/a%2Fb", cat.Package("game", "a/b")},
		{"/api/packages/game/with%20space", cat.Package("game", "with space")},
		{"/api/servers/" + srv.ID, cat.Server(srv.ID)},
		{"/api/organizations/" + org.Ident, cat.Organization(org.Ident)},
		{"/api/analytics/packages/game/100%25", cat.PackageReport("game", "100%")},
		{"/api/analytics/organizations/" + org.Ident, cat.OrganizationReport(org.Ident)},
		{"/api/search?q=raiders", cat.Search("raiders")},
		{"/api/activity-history?range=24h", cat.ActivityHistory("24h")},
	} {
		require.NotNil(t, tt.want, tt.path)
		code, out, errOut := cli(t, twin.URL, "api", tt.path)
		require.Equal(t, 0, code, "%s: %s", tt.path, errOut)
		assert.JSONEq(t, string(tt.want), out, tt.path)
	}
	code, out, errOut := cli(t, twin.URL, "api", "/openapi.json", "--jq", ".openapi")
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `^3\.1\.`, out)
}

// The query of PATH and -f's parameters are sent, each value as given:
// those the SDK's options type (kind, the page's) through them, the
// others as they are. The SDK always sends a directory's page.
func TestAPISendsTheQuery(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want url.Values
	}{
		{[]string{"/api/dashboard?kind=game&filter=online", "-f", "filter=has-players", "-f", "pageSize=5", "-f", "x=a,b"},
			url.Values{"kind": {"game"}, "filter": {"online", "has-players"}, "page": {"1"}, "pageSize": {"5"}, "x": {"a,b"}}},
		{[]string{"/api/organizations", "-f", "sort=name", "-f", "page=2", "-f", "pageSize=2"}, url.Values{"sort": {"name"}, "page": {"2"}, "pageSize": {"2"}}},
		{[]string{"/api/search", "-f", "q=a b", "-f", "x=1"}, url.Values{"q": {"a b"}, "x": {"1"}}},
		{[]string{"/api/packages/game/1337?x=1", "-f", "x=2"}, url.Values{"x": {"1", "2"}}},
		{[]string{"/api/activity-history?range=30d"}, url.Values{"range": {"30d"}}},
	} {
		twin := newTwin(t)
		code, _, errOut := cli(t, twin.URL, append([]string{"api"}, tt.args...)...)
		require.Equal(t, 0, code, "%v: %s", tt.args, errOut)
		reqs := twin.Requests()
		require.Len(t, reqs, 1, "%v", tt.args)
		assert.Equal(t, tt.want, reqs[0].Query, "%v", tt.args)
	}
}

// A read goes through the client the factory makes, its cache among its
// settings: a second run revalidates what the first kept.
func TestAPIUsesTheClientsCache(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	dir := t.TempDir()
	var outs []string
	for range 2 {
		code, out, errOut := cli(t, twin.URL, "api", "/api/packages/game/1337", "--cache-dir", dir)
		require.Equal(t, 0, code, errOut)
		outs = append(outs, out)
	}
	reqs := twin.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, http.StatusNotModified, reqs[1].Status)
	assert.Equal(t, outs[0], outs[1])
}

// Bad usage is said in one line and exits 2 before anything is sent.
func TestAPIUsageErrors(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{}, "api: want PATH, such as /api/dashboard, got 0 argument(s)"},
		{[]string{"/foo"}, "api /foo: want a path under /api/, or /openapi.json"},
		{[]string{"api/dashboard"}, "api api/dashboard: want a path under /api/, or /openapi.json"},
		{[]string{"/openapi.jsonx"}, "api /openapi.jsonx: want a path under /api/, or /openapi.json"},
		{[]string{"https://example.com/api/dashboard"}, "api https://example.com/api/dashboard: give the path alone, such as /api/dashboard; the service's address is --base-url"},
		{[]string{"/api/nothing"}, `api /api/nothing: no endpoint of the service has this path; "gamedata help api" lists those there are`},
		{[]string{"/api/dashboard/"}, `api /api/dashboard/: no endpoint of the service has this path; "gamedata help api" lists those there are`},
		{[]string{"/api/packages/game/frag#1"}, "api /api/packages/game/frag#1: a # starts a fragment, which is never sent; in an identifier, escape it as %23"},
		{[]string{"/api/packages/game/100%"}, `api /api/packages/game/100%: invalid URL escape "%"; give the path as in a URL, a % in an identifier as %25`},
		{[]string{"/api/packages/game/.."}, `api /api/packages/game/..: ".." is a path's dot segment, which no request can name; check the identifier`},
		{[]string{"/api/packages/game/%2E%2E"}, `api /api/packages/game/%2E%2E: ".." is a path's dot segment, which no request can name; check the identifier`},
		{[]string{"/api/packages/game/"}, "api /api/packages/game/: an empty identifier names no record; give one"},
		{[]string{"/api/dashboard", "-f", "kind"}, `api -f "kind": want key=value, such as -f kind=game`},
		{[]string{"/api/dashboard", "-f", "=game"}, `api -f "=game": want key=value, such as -f kind=game`},
		{[]string{"/api/packages/game/1337", "--paginate"}, "api /api/packages/game/1337 --paginate: not a directory; --paginate walks /api/dashboard and /api/organizations"},
		{[]string{"/openapi.json", "--paginate"}, "api /openapi.json --paginate: not a directory; --paginate walks /api/dashboard and /api/organizations"},
		{[]string{"/api/dashboard?page=0"}, "api /api/dashboard: page=0: want a whole number, 1 or more"},
		{[]string{"/api/organizations", "-f", "pageSize=500"}, "api /api/organizations: pageSize=500: want a whole number from 1 to 100"},
		{[]string{"/api/dashboard?kind=game", "-f", "kind=mod"}, "api /api/dashboard: kind is given 2 times; give it once"},
		{[]string{"/api/search?q="}, "api /api/search: q is empty; give it a value, or leave it out"},
	} {
		code, out, errOut := cli(t, twin.URL, append([]string{"api"}, tt.args...)...)
		assert.Equal(t, 2, code, "%v", tt.args)
		assert.Empty(t, out, "%v", tt.args)
		assert.Equal(t, "gamedata: "+tt.says+"\n", errOut, "%v", tt.args)
	}
	assert.Empty(t, twin.Requests(), "nothing was sent")
}

// An answer that is not 2xx has its body said on stderr, safe to print
// whatever it holds, before the one line that says what failed; the
// command exits 1 and prints nothing on stdout.
func TestAPISaysTheBodyOfAFailure(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, out, errOut := cli(t, twin.URL, "api", "/api/packages/game/nope")
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	require.Len(t, lines, 2, errOut)
	assert.Equal(t, `{"error":"not found"}`, lines[0], "the twin's body, as sent")
	assert.True(t, strings.HasPrefix(lines[1], "gamedata: no package game/nope on the service (404)"), lines[1])

	hostile := fixed(t, map[string]answer{
		"/api/packages/game/json": {http.StatusNotFound, `{"error":"\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007 \u202eevil"}`},
		"/api/packages/game/html": {http.StatusBadRequest, "<html>\n\x1b[2J\x1b]0;owned\x07<b>bad</b>\u202e\n</html>"},
	})
	for _, tt := range []struct {
		ident, body, says string
	}{
		{"json", `{"error":"\u001b]8;;http://evil.example\u0007click\u001b]8;;\u0007 \u202eevil"}`,
			"gamedata: no package game/json on the service (404)"},
		{"html", "<html> <b>bad</b> </html>",
			"gamedata: api /api/packages/game/html: the service answered 400 Bad Request; its body is above\n"},
	} {
		code, out, errOut := cli(t, hostile, "api", "/api/packages/game/"+tt.ident)
		assert.Equal(t, 1, code, tt.ident)
		assert.Empty(t, out, tt.ident)
		assertInert(t, errOut, "stderr")
		body, says, _ := strings.Cut(errOut, "\n")
		assert.Equal(t, tt.body, body, tt.ident)
		assert.True(t, strings.HasPrefix(says, tt.says), "%s: %q", tt.ident, says)
	}
}

// A page past a directory's end, which the service redirects, is said
// as such, whether read alone or walked from.
func TestAPIPagePastTheEnd(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, args := range [][]string{
		{"api", "/api/organizations?page=9"},
		{"api", "/api/organizations?page=9", "--paginate"},
	} {
		code, out, errOut := cli(t, twin.URL, args...)
		assert.Equal(t, 1, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Equal(t, "gamedata: api /api/organizations: page 9 is past the directory's end; give a smaller page\n", errOut, "%v", args)
	}
}

// On a terminal the document is indented, in a pipe it is one line; both
// are the body as sent, with the service's hostile text escaped.
func TestAPIOnATerminalAndInAPipe(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
	var ref, want string
	for _, p := range cat.Packages {
		if strings.ContainsRune(p.Name, 0x1b) {
			ref, want = p.Kind+"/"+p.Ident, string(cat.Package(p.Kind, p.Ident))
			break
		}
	}
	require.NotEmpty(t, ref, "a package whose title holds an escape")

	code, out, errOut := onTerminal(t, twin.URL, 80, "api", "/api/packages/"+ref)
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "{\n  \""), "indented: %.40q", out)
	assertInert(t, out, "the terminal's document")
	assert.JSONEq(t, want, out)

	code, out, errOut = cli(t, twin.URL, "api", "/api/packages/"+ref)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one line: %.80q", out)
	assertInert(t, out, "the pipe's document")
	assert.JSONEq(t, want, out)
}

// api parses PATH and -f into the request before anything starts, and
// bounds a read of one page, never a walk.
func TestAPIOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args     []string
		template string
		pathArgs []string
		query    url.Values
		paginate bool
	}{
		{[]string{"api", "/api/dashboard?kind=game", "-f", "page=2", "--paginate"}, "/api/dashboard", nil, url.Values{"kind": {"game"}, "page": {"2"}}, true},
		{[]string{"api", "/api/packages/game/a%2Fb"}, "/api/packages/{kind}/{ident}", []string{"game", "a/b"}, url.Values{}, false},
		{[]string{"api", "/api/analytics/packages?q=x"}, "/api/analytics/packages", nil, url.Values{"q": {"x"}}, false},
		{[]string{"api", "/openapi.json"}, "/openapi.json", nil, url.Values{}, false},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		opts := p.opts.(*apiOptions)
		assert.Equal(t, tt.template, opts.Request.Route.template, "%v", tt.args)
		assert.Equal(t, tt.pathArgs, opts.Request.Args, "%v", tt.args)
		assert.Equal(t, tt.query, opts.Request.Query, "%v", tt.args)
		assert.Equal(t, tt.paginate, opts.Paginate, "%v", tt.args)
		assert.Equal(t, !tt.paginate, p.bounded, "%v: a page is bounded, a walk is not", tt.args)
	}
}
