package gamedatatest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walk reads every page of a directory with plain net/http, from page 1
// while hasNext, checking the pagination object of each page.
func walk(t *testing.T, s *Server, path string, q url.Values) []map[string]any {
	t.Helper()
	var all []map[string]any
	for page := 1; ; page++ {
		require.Less(t, page, 1000, "walk does not end")
		pq := url.Values{}
		for k, v := range q {
			pq[k] = v
		}
		pq.Set("page", strconv.Itoa(page))
		body := getOK(t, s, withQuery(path, pq))
		p := body["pagination"].(map[string]any)
		items := maps(t, body["items"])
		totalPages := int(p["totalPages"].(float64))
		assert.Equal(t, float64(page), p["page"], "page number")
		assert.Equal(t, page < totalPages, p["hasNext"], "hasNext on page %d of %d", page, totalPages)
		if p["hasNext"] == true {
			assert.Len(t, items, int(p["pageSize"].(float64)), "a page before the last is full")
		} else {
			assert.NotEmpty(t, items, "the last page of a non-empty directory has entries")
		}
		all = append(all, items...)
		if p["hasNext"] != true {
			assert.Equal(t, float64(len(all)), p["total"], "total")
			return all
		}
	}
}

func TestDirectoryWalk(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	tests := []struct {
		name string
		path string
		q    url.Values
		want []map[string]any
	}{
		{"all packages", "/api/dashboard", nil, decoded(t, c.Packages)},
		{"servers", "/api/dashboard", url.Values{"kind": {"server"}}, decoded(t, c.Servers)},
		{"games", "/api/dashboard", url.Values{"kind": {"game"}}, decoded(t, c.Entries(url.Values{"kind": {"game"}}))},
		{"mods, odd page size", "/api/dashboard", url.Values{"kind": {"mod"}, "pageSize": {"7"}},
			decoded(t, c.Entries(url.Values{"kind": {"mod"}}))},
		{"servers by players", "/api/dashboard", url.Values{"kind": {"server"}, "sort": {"players"}, "pageSize": {"13"}},
			decoded(t, c.Entries(url.Values{"kind": {"server"}, "sort": {"players"}}))},
		{"online games by name", "/api/dashboard", url.Values{"kind": {"game"}, "filter": {"online"}, "sort": {"name"}},
			decoded(t, c.Entries(url.Values{"kind": {"game"}, "filter": {"online"}, "sort": {"name"}}))},
		{"page size 100", "/api/dashboard", url.Values{"pageSize": {"100"}, "sort": {"updated"}},
			decoded(t, c.Entries(url.Values{"sort": {"updated"}}))},
		{"organizations", "/api/organizations", url.Values{"pageSize": {"8"}}, decoded(t, c.Organizations)},
		{"organizations by packages", "/api/organizations", url.Values{"sort": {"packages"}, "filter": {"has-packages"}},
			decoded(t, c.OrganizationEntries(url.Values{"sort": {"packages"}, "filter": {"has-packages"}}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEmpty(t, tt.want)
			got := walk(t, s, tt.path, tt.q)
			assert.Equal(t, tt.want, got, "a walk yields every entry once, in order")
		})
	}
	assert.Len(t, c.Packages, DefaultPackages)
	assert.Len(t, c.Servers, DefaultServers)
	assert.Len(t, c.Organizations, DefaultOrganizations)
}

func TestPageSize(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	tests := []struct {
		pageSize string
		want     int
	}{
		{"1", 1},
		{"37", 37},
		{"100", 100},
		{"101", 100},
		{"1000", 100},
		{"0", 20},
		{"-5", 20},
		{"ten", 20},
		{"", 20},
	}
	for _, tt := range tests {
		t.Run(tt.pageSize, func(t *testing.T) {
			body := getOK(t, s, "/api/dashboard?pageSize="+url.QueryEscape(tt.pageSize))
			assert.Len(t, body["items"], tt.want)
			assert.Equal(t, float64(tt.want), body["pagination"].(map[string]any)["pageSize"])
		})
	}
}

func TestPageNormalized(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	first := getOK(t, s, "/api/dashboard")
	for _, page := range []string{"1", "0", "-3", "two", "1.5", ""} {
		t.Run(page, func(t *testing.T) {
			body := getOK(t, s, "/api/dashboard?page="+url.QueryEscape(page))
			assert.Equal(t, first, body)
			assert.Equal(t, float64(1), body["pagination"].(map[string]any)["page"])
		})
	}
}

func TestFiltersCombine(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	org := c.Packages[0].Organization
	require.NotEmpty(t, org)
	packages := decoded(t, c.Packages)
	isOnline := func(e map[string]any) bool { return e["online"] == true }
	hasPlayers := func(e map[string]any) bool { p, ok := e["players"].(float64); return ok && p > 0 }
	ofOrg := func(e map[string]any) bool { return e["organization"] == org }
	count := func(keep ...func(map[string]any) bool) int {
		n := 0
	next:
		for _, e := range packages {
			for _, k := range keep {
				if !k(e) {
					continue next
				}
			}
			n++
		}
		return n
	}
	total := func(q string) int {
		body := getOK(t, s, "/api/dashboard?pageSize=100&"+q)
		return int(body["pagination"].(map[string]any)["total"].(float64))
	}
	tests := []struct {
		q    string
		want int
	}{
		{"filter=online", count(isOnline)},
		{"filter=has-players", count(hasPlayers)},
		{"filter=org:" + org, count(ofOrg)},
		{"filter=online&filter=has-players", count(isOnline, hasPlayers)},
		{"filter=online&filter=org:" + org, count(isOnline, ofOrg)},
		{"filter=online&filter=has-players&filter=org:" + org, count(isOnline, hasPlayers, ofOrg)},
		{"filter=online&filter=bogus", count(isOnline)},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			assert.Equal(t, tt.want, total(tt.q))
		})
	}
	require.Less(t, count(isOnline, hasPlayers, ofOrg), count(isOnline, ofOrg), "the data must make the third filter matter")
	require.Less(t, count(isOnline, ofOrg), count(ofOrg), "the data must make a second filter matter")

	body := getOK(t, s, "/api/dashboard?filter=has-players&filter=online&filter=online&filter=bogus")
	assert.Equal(t, []any{"has-players", "online"}, body["filters"], "applied filters, deduplicated, in request order")
}

func TestUnsupportedNormalized(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	def := getOK(t, s, "/api/dashboard")
	assert.Equal(t, "ident", def["sort"])
	assert.Equal(t, []any{}, def["filters"])
	assert.Nil(t, def["kind"])
	for _, q := range []string{"sort=bogus", "sort=", "filter=bogus", "filter=org:", "filter=", "kind=bogus", "kind=", "sort=PLAYERS&filter=Online&kind=Game", "unknown=1"} {
		t.Run(q, func(t *testing.T) {
			assert.Equal(t, def, getOK(t, s, "/api/dashboard?"+q))
		})
	}
	orgs := getOK(t, s, "/api/organizations")
	assert.Equal(t, orgs, getOK(t, s, "/api/organizations?sort=players&filter=online&kind=game"))
}

func TestOutOfRangeRedirect(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	games := len(s.Catalog().Entries(url.Values{"kind": {"game"}}))
	last := (games + 9) / 10
	require.Greater(t, last, 1)

	r := get(t, s, "/api/dashboard?kind=game&page=999&pageSize=10&filter=online&filter=has-players")
	filtered := len(s.Catalog().Entries(url.Values{"kind": {"game"}, "filter": {"online", "has-players"}}))
	lastFiltered := (filtered + 9) / 10
	assert.Equal(t, http.StatusFound, r.status)
	assert.Equal(t, "/api/dashboard?kind=game&page="+strconv.Itoa(lastFiltered)+"&pageSize=10&filter=online&filter=has-players",
		r.header.Get("Location"), "same path and query, page replaced in place")

	r = get(t, s, "/api/dashboard?page="+strconv.Itoa(last+1)+"&kind=game&pageSize=10&page=3")
	assert.Equal(t, http.StatusFound, r.status)
	assert.Equal(t, "/api/dashboard?page="+strconv.Itoa(last)+"&kind=game&pageSize=10", r.header.Get("Location"))

	// The last page itself is served.
	body := getOK(t, s, "/api/dashboard?kind=game&pageSize=10&page="+strconv.Itoa(last))
	assert.Equal(t, false, body["pagination"].(map[string]any)["hasNext"])

	// Followed by a plain client, the redirect ends on the last page.
	resp, err := s.Client().Get(s.URL + "/api/organizations?page=50&pageSize=7")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, strconv.Itoa((DefaultOrganizations+6)/7), resp.Request.URL.Query().Get("page"))

	// Mounted under a prefix, the redirect keeps the prefix.
	mux := http.NewServeMux()
	mux.Handle("/v1/", http.StripPrefix("/v1", s.Handler()))
	ts := httptest.NewServer(mux)
	defer ts.Close()
	c := ts.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err = c.Get(ts.URL + "/v1/api/dashboard?page=999")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.Equal(t, "/v1/api/dashboard?page="+strconv.Itoa((DefaultPackages+19)/20), resp.Header.Get("Location"))
}

func TestEmptyDirectory(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	for _, q := range []string{"filter=org:no-such-org", "filter=org:no-such-org&page=4"} {
		t.Run(q, func(t *testing.T) {
			body := getOK(t, s, "/api/dashboard?"+q)
			assert.Equal(t, []any{}, body["items"])
			assert.Equal(t, map[string]any{"page": 1.0, "pageSize": 20.0, "total": 0.0, "totalPages": 0.0, "hasNext": false}, body["pagination"])
		})
	}
	empty := NewServer(WithSize(0, 0, 0))
	defer empty.Close()
	for _, path := range []string{"/api/dashboard", "/api/dashboard?kind=server", "/api/organizations"} {
		body := getOK(t, empty, path)
		assert.Equal(t, []any{}, body["items"], path)
		assert.Equal(t, false, body["pagination"].(map[string]any)["hasNext"], path)
	}
}

func TestReorderEvery(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	const path = "/api/dashboard?sort=players&pageSize=100"
	idents := func() []any {
		var out []any
		for _, e := range maps(t, getOK(t, s, path)["items"]) {
			out = append(out, e["ident"])
		}
		return out
	}
	first := idents()
	assert.Equal(t, first, idents(), "no shifting by default")

	servers := func() []any {
		var ids []any
		for _, e := range s.Catalog().Entries(url.Values{"kind": {"server"}, "sort": {"players"}}) {
			ids = append(ids, e.ID)
		}
		return ids
	}
	serversBefore := servers()
	s.ReorderEvery(2)
	a, b, c := idents(), idents(), idents()
	assert.NotEqual(t, serversBefore, servers(), "the players-sorted order of servers moves too")
	assert.Equal(t, first, a)
	assert.Equal(t, a, b, "the first two requests see the same order")
	assert.NotEqual(t, b, c, "the third request sees a new order")
	var truth []any
	for _, e := range s.Catalog().Entries(url.Values{"sort": {"players"}})[:100] {
		truth = append(truth, e.Ident)
	}
	assert.Equal(t, c, truth, "the catalog follows the shift")
	for _, e := range decoded(t, s.Catalog().Packages) {
		if players, ok := e["players"].(float64); ok && e["playersPeak"] != nil {
			assert.GreaterOrEqual(t, e["playersPeak"], players, "%v: a shift raises the peak it passes", e["ident"])
		}
	}

	s.ReorderEvery(0)
	assert.Equal(t, idents(), idents())

	// Reordering is reproducible: a second server sees the same shifts.
	s2 := NewServer()
	defer s2.Close()
	s2.ReorderEvery(2)
	for range 3 {
		getOK(t, s2, path)
	}
	assert.Equal(t, decoded(t, s.Catalog().Packages), decoded(t, s2.Catalog().Packages))
}

func TestSortOrders(t *testing.T) {
	t.Parallel()
	s := NewServer()
	defer s.Close()
	c := s.Catalog()
	key := func(e map[string]any) string {
		if id, ok := e["id"].(string); ok {
			return id
		}
		return e["ident"].(string) + "\x00" + e["kind"].(string)
	}
	players := func(e map[string]any) float64 {
		if p, ok := e["players"].(float64); ok {
			return p
		}
		return -1 // null sorts last
	}
	tests := []struct {
		q       url.Values
		inOrder func(a, b map[string]any) bool
	}{
		{url.Values{}, func(a, b map[string]any) bool { return key(a) < key(b) }},
		{url.Values{"sort": {"players"}}, func(a, b map[string]any) bool {
			return players(a) > players(b) || (players(a) == players(b) && key(a) < key(b))
		}},
		{url.Values{"sort": {"players"}, "kind": {"server"}}, func(a, b map[string]any) bool {
			return players(a) > players(b) || (players(a) == players(b) && key(a) < key(b))
		}},
		{url.Values{"sort": {"updated"}}, func(a, b map[string]any) bool {
			return a["updatedAt"].(string) > b["updatedAt"].(string) ||
				(a["updatedAt"] == b["updatedAt"] && key(a) < key(b))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.q.Encode(), func(t *testing.T) {
			entries := decoded(t, c.Entries(tt.q))
			require.NotEmpty(t, entries)
			for i := 1; i < len(entries); i++ {
				assert.True(t, tt.inOrder(entries[i-1], entries[i]), "entries %d and %d out of order: %v, %v", i-1, i, entries[i-1], entries[i])
			}
		})
	}
	var nulls, zeros int
	for _, e := range decoded(t, c.Packages) {
		switch e["players"] {
		case nil:
			nulls++
		case 0.0:
			zeros++
		}
	}
	assert.Positive(t, nulls, "some packages have null players")
	assert.Greater(t, zeros, 1, "ties in players exist")
}
