package gamedatatest

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscapedPathSegments(t *testing.T) {
	t.Parallel()
	s := NewServer(WithAwkwardIdents())
	defer s.Close()
	for _, ident := range awkwardIdents {
		t.Run(ident, func(t *testing.T) {
			escaped := url.PathEscape(ident)
			body := getOK(t, s, "/api/packages/game/"+escaped)
			assert.Equal(t, ident, body["ident"])
			report := getOK(t, s, "/api/analytics/packages/game/"+escaped)
			assert.Equal(t, ident, report["ident"])
			assert.Equal(t, object(t, s.Catalog().Package("game", ident)), body)
		})
	}
	// Every segment is unescaped on its own, so %2F stays inside one.
	assert.Equal(t, "a/b", getOK(t, s, "/api/packages/%67ame/a%2Fb")["ident"])
	assert.Equal(t, "..", getOK(t, s, "/api/packages/game/%2E%2E")["ident"], "the dot-segment ident, escaped")
	assert.Equal(t, http.StatusNotFound, get(t, s, "/api/packages/game/a/b").status)
	assert.Equal(t, http.StatusNotFound, get(t, s, "/api/packages/game/with+space").status, "+ is not a space in a path")
	reqs := s.Requests()
	assert.Equal(t, "/api/packages/%67ame/a%2Fb", reqs[len(reqs)-4].Path, "the log keeps the path as sent")

	server := s.Catalog().Servers[0].ID
	assert.Equal(t, server, getOK(t, s, "/api/servers/"+url.PathEscape(server))["id"])
	assert.Equal(t, server, getOK(t, s, "/api/servers/"+strings.ReplaceAll(server, ":", "%3A"))["id"])
	assert.Equal(t, "1999", getOK(t, s, "/api/organizations/%31999")["ident"])
	assert.Equal(t, "studio.nine", getOK(t, s, "/api/analytics/organizations/studio%2Enine")["ident"])
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	for _, path := range []string{
		"/", "/api", "/api/", "/api/dashboard/", "/api/nope", "/openapi.yaml", "/api/openapi.json",
		"/api/packages/game", "/api/packages/game/no-such-package", "/api/packages/server/1337",
		"/api/packages/mod/1337", "/api/packages/game/1337/extra", "/api/packages//1337",
		"/api/servers/203.0.113.0:1", "/api/organizations/no-such-org", "/api/organizations/1999/x",
		"/api/analytics/packages/game/no-such-package", "/api/analytics/organizations/nope",
		"/api/analytics", "/api/analytics/organizations",
	} {
		t.Run(path, func(t *testing.T) {
			r := get(t, s, path)
			assert.Equal(t, http.StatusNotFound, r.status)
			assert.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
			assert.Equal(t, map[string]any{"error": "not found"}, r.object(t))
		})
	}
	assert.Equal(t, http.StatusOK, get(t, s, "/api/packages/game/1337").status, "the catalogue has the package the 404s above miss")
}

func TestMethodNotAllowed(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodPatch} {
		t.Run(method, func(t *testing.T) {
			req, err := http.NewRequest(method, s.URL+"/api/dashboard", nil)
			require.NoError(t, err)
			resp, err := s.Client().Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
			assert.Equal(t, "GET", resp.Header.Get("Allow"))
		})
	}
}

// everyPath is one request of each endpoint.
func everyPath(c *Catalog) []string {
	p, v, o := c.Packages[1], c.Servers[2].ID, c.Organizations[3].Ident
	pkg := p.Kind + "/" + url.PathEscape(p.Ident)
	return []string{
		"/api/dashboard?kind=game&page=2&sort=players&filter=online",
		"/api/dashboard?kind=server&pageSize=50",
		"/api/organizations?sort=name",
		"/api/search?q=miner",
		"/api/packages/" + pkg,
		"/api/servers/" + url.PathEscape(v),
		"/api/organizations/" + url.PathEscape(o),
		"/api/activity-history?range=30d",
		"/api/analytics/packages?q=an",
		"/api/analytics/packages/" + pkg,
		"/api/analytics/organizations/" + url.PathEscape(o),
		"/openapi.json",
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	a, b := NewServer(), NewServer()
	defer a.Close()
	defer b.Close()
	other := NewServer(WithSeed(DefaultSeed + 1))
	defer other.Close()
	for _, path := range everyPath(a.Catalog()) {
		ra, rb := get(t, a, path), get(t, b, path)
		require.Equal(t, http.StatusOK, ra.status, path)
		assert.True(t, bytes.Equal(ra.body, rb.body), "same seed, same bytes: %s", path)
	}
	assert.NotEqual(t, a.Catalog().Packages, other.Catalog().Packages, "another seed, another catalogue")
	assert.NotEqual(t, get(t, a, "/api/activity-history").body, get(t, other, "/api/activity-history").body)
}

func TestCatalogMatchesWire(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	p := c.Packages[5]
	kind, ident := p.Kind, p.Ident
	id := c.Servers[7].ID
	org := c.Organizations[2].Ident
	tests := []struct {
		path string
		want []byte
	}{
		{"/api/packages/" + kind + "/" + url.PathEscape(ident), c.Package(kind, ident)},
		{"/api/servers/" + id, c.Server(id)},
		{"/api/organizations/" + org, c.Organization(org)},
		{"/api/analytics/packages/" + kind + "/" + url.PathEscape(ident), c.PackageReport(kind, ident)},
		{"/api/analytics/organizations/" + org, c.OrganizationReport(org)},
		{"/api/activity-history?range=24h", c.ActivityHistory("24h")},
		{"/api/search?q=Miner", c.Search("Miner")},
	}
	for _, tt := range tests {
		require.NotNil(t, tt.want, tt.path)
		r := get(t, s, tt.path)
		require.Equal(t, http.StatusOK, r.status, tt.path)
		assert.Equal(t, string(r.body), string(tt.want), "%s: the bytes served", tt.path)
	}
	record := object(t, c.Package(kind, ident))
	for k, v := range object(t, p.JSON()) {
		assert.Equal(t, v, record[k], "the detail record carries directory member %s", k)
	}
	assert.Nil(t, c.Package("game", "no-such-package"))
	assert.Nil(t, c.Server("192.0.2.1:1"))
	assert.Nil(t, c.Organization("no-such-org"))
	assert.Nil(t, c.PackageReport("game", "no-such-package"))
	assert.Nil(t, c.OrganizationReport("no-such-org"))

	// The catalogue is a copy.
	entry, body := string(c.Packages[0].JSON()), string(c.Package(kind, ident))
	c.Packages[0].Name = "changed"
	c.Packages[0].JSON()[0] = ' '
	c.Package(kind, ident)[0] = ' '
	c.Packages = nil
	fresh := s.Catalog()
	assert.NotEqual(t, "changed", fresh.Packages[0].Name)
	assert.Equal(t, entry, string(fresh.Packages[0].JSON()))
	assert.Equal(t, body, string(fresh.Package(kind, ident)))
}

func TestSearch(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	body := getOK(t, s, "/api/search?q=MINER")
	assert.Equal(t, "MINER", body["query"])
	pkgs := maps(t, body["packages"])
	require.NotEmpty(t, pkgs)
	for _, p := range pkgs {
		assert.True(t, strings.Contains(strings.ToLower(p["ident"].(string)+p["title"].(string)), "miner"), "%v", p)
	}
	for _, v := range maps(t, body["servers"]) {
		assert.Equal(t, "server", v["kind"])
	}
	wide := getOK(t, s, "/api/search?q=e")
	assert.Len(t, wide["packages"], searchLimit, "capped")
	assert.Len(t, wide["organizations"], min(searchLimit, countMatching(s.Catalog().Organizations, "e")))
	empty := getOK(t, s, "/api/search?q=")
	assert.Equal(t, []any{}, empty["packages"])
	assert.Equal(t, []any{}, empty["servers"])
	assert.Equal(t, []any{}, empty["organizations"])

	server := s.Catalog().Servers[0].ID
	hit := maps(t, getOK(t, s, "/api/search?q="+url.QueryEscape(server))["servers"])
	require.Len(t, hit, 1, "a server is found by its id")
	assert.Equal(t, server, hit[0]["id"])

	analytics := getOK(t, s, "/api/analytics/packages?q=acme")
	assert.Equal(t, "acme", analytics["query"])
	assert.Contains(t, analytics, "packages")
	assert.NotContains(t, analytics, "servers")
	for _, o := range maps(t, analytics["organizations"]) {
		assert.Contains(t, strings.ToLower(o["ident"].(string)+o["name"].(string)), "acme")
	}
}

func countMatching(orgs []OrganizationEntry, q string) int {
	n := 0
	for _, o := range orgs {
		if strings.Contains(strings.ToLower(o.Ident+o.Name), q) {
			n++
		}
	}
	return n
}

func TestCatalogueCorners(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	var text, titles strings.Builder
	idents := map[string][]string{}
	kinds := map[string]int{}
	for _, p := range decoded(t, c.Packages) {
		kind, ident := p["kind"].(string), p["ident"].(string)
		kinds[kind]++
		idents[ident] = append(idents[ident], kind)
		d := object(t, c.Package(kind, ident))
		text.WriteString(d["title"].(string) + d["description"].(string) + d["updateNotes"].(string))
		titles.WriteString(d["title"].(string))
	}
	for _, v := range decoded(t, c.Servers) {
		text.WriteString(v["name"].(string))
	}
	for _, o := range decoded(t, c.Organizations) {
		text.WriteString(o["name"].(string) + o["description"].(string))
	}
	for _, want := range []string{
		"\x1b[31m", "\x1b]8;;http://x\x07", "\u202e", "\u2066", "\x07", "\x00", "\r", "\u009b",
		"Ignore previous instructions",
	} {
		assert.Contains(t, text.String(), want, "publisher text contains %q", want)
	}
	assert.Contains(t, titles.String(), "\x1b[", "titles too carry escapes")
	assert.Contains(t, titles.String(), "\u202e", "titles too carry bidi overrides")
	for _, ident := range []string{"1337", "hello.world", "under_score"} {
		assert.Contains(t, idents, ident)
	}
	shared := 0
	for _, ks := range idents {
		if len(ks) > 1 {
			shared++
		}
	}
	assert.Positive(t, shared, "an ident used by two kinds")
	assert.Greater(t, kinds["game"], kinds["mod"]+kinds["tool"])
	assert.Positive(t, kinds["mod"])
	assert.Positive(t, kinds["tool"])

	var nullOrg, nullPeak, nullRating int
	for _, p := range decoded(t, c.Packages) {
		if p["organization"] == nil {
			nullOrg++
		}
		if p["playersPeak"] == nil {
			nullPeak++
		}
		if p["rating"] == nil {
			nullRating++
		}
	}
	assert.Positive(t, nullOrg)
	assert.Positive(t, nullPeak)
	assert.Positive(t, nullRating)
	empty := c.OrganizationEntries(url.Values{})
	assert.Less(t, len(c.OrganizationEntries(url.Values{"filter": {"has-packages"}})), len(empty), "an organization without packages")
}

var documentationID = regexp.MustCompile(`^(192\.0\.2|198\.51\.100|203\.0\.113)\.(\d{1,3}):(\d{1,5})$`)

func TestServerIDs(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	cat := s.Catalog()
	seen := map[string]bool{}
	var nullPlayers int
	for _, v := range decoded(t, cat.Servers) {
		id := v["id"].(string)
		m := documentationID.FindStringSubmatch(id)
		require.NotNil(t, m, "id %q is in a documentation range", id)
		host, _ := strconv.Atoi(m[2])
		assert.True(t, host >= 1 && host <= 254, id)
		assert.False(t, seen[id], "id %s is unique", id)
		seen[id] = true
		if v["players"] == nil {
			nullPlayers++
		}
		if ref, ok := v["package"].(map[string]any); ok {
			assert.NotNil(t, cat.Package(ref["kind"].(string), ref["ident"].(string)), "server %s names a real package", id)
		}
	}
	assert.Positive(t, nullPlayers)

	// The directory's total, not len(Catalog().Servers): writing every
	// entry of 16,764 servers would cost as much as generating them.
	big := NewServer(WithSize(10, maxServers+10, 2))
	defer big.Close()
	page := getOK(t, big, "/api/dashboard?kind=server&pageSize=1")
	assert.EqualValues(t, maxServers, page["pagination"].(map[string]any)["total"], "capped, not stuck")
}

func TestRequests(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	a := get(t, s, "/api/dashboard?kind=game&filter=online&filter=has-players")
	b := get(t, s, "/api/dashboard?page=9999")
	c := get(t, s, "/nope")
	want := []Request{
		{Method: "GET", Path: "/api/dashboard", Query: url.Values{"kind": {"game"}, "filter": {"online", "has-players"}}, Status: 200, Bytes: len(a.body), Done: true},
		{Method: "GET", Path: "/api/dashboard", Query: url.Values{"page": {"9999"}}, Status: 302, Bytes: len(b.body), Done: true},
		{Method: "GET", Path: "/nope", Query: url.Values{}, Status: 404, Bytes: len(c.body), Done: true},
	}
	assert.Equal(t, want, s.Requests())
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	// Four pages (70 entries): every page asked for is there, and a
	// Catalog read while the others run is cheap enough to repeat.
	s := NewServer(WithSize(50, 20, 5), WithFaults(Faults{Rate: 0.2, Kinds: []Fault{Fault500, Fault503}}))
	defer s.Close()
	s.ReorderEvery(3)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 10 {
				resp, err := s.Client().Get(s.URL + "/api/dashboard?sort=players&page=" + strconv.Itoa(1+j%3))
				if err == nil {
					resp.Body.Close()
				}
				switch i % 4 {
				case 0:
					s.SetFaults(Faults{Rate: 0.1})
				case 1:
					s.SetRateLimit(1000, 10)
				case 2:
					_ = s.Catalog().Entries(url.Values{"sort": {"players"}})
				default:
					_ = s.Requests()
				}
			}
		})
	}
	wg.Wait()
	assert.Len(t, s.Requests(), 80)
}

func TestWithSize(t *testing.T) {
	t.Parallel()
	s := NewServer(WithSize(12, 5, 3), WithSeed(3))
	defer s.Close()
	c := s.Catalog()
	assert.Len(t, c.Packages, 12)
	assert.Len(t, c.Servers, 5)
	assert.Len(t, c.Organizations, 3)
	neg := NewServer(WithSize(-1, -1, -1), nil)
	defer neg.Close()
	assert.Empty(t, neg.Catalog().Packages)
	assert.Equal(t, http.StatusOK, get(t, neg, "/api/search?q=a").status)
	assert.Equal(t, http.StatusOK, get(t, neg, "/api/activity-history").status)
	assert.Len(t, catalogOf(t, WithAwkwardIdents()).Packages, DefaultPackages+len(awkwardIdents))
}

func catalogOf(t *testing.T, opts ...Option) *Catalog {
	t.Helper()
	s := NewServer(opts...)
	defer s.Close()
	return s.Catalog()
}
