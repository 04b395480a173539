package gamedatatest

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMatchOf(t *testing.T) {
	t.Parallel()
	removed := func(n string) bool { return n == "token" }
	hidden := func(n string) bool { return n == "secret" }
	for _, tc := range []struct {
		name, url string
		want      match
	}{
		{"a record", "/api/packages/game/a%2Fb", match{key: "GET /api/packages/game/a%2Fb", route: "/api/packages/{kind}/{ident}"}},
		{"escaped otherwise", "/api/packages/%67ame/a%2fb", match{key: "GET /api/packages/game/a%2Fb", route: "/api/packages/{kind}/{ident}"}},
		{"under a prefix", "/v1/api/api/servers/1.2.3.4:5", match{key: "GET /api/servers/1.2.3.4:5", route: "/api/servers/{id}"}},
		{"a directory without a page", "/api/dashboard?kind=game",
			match{key: "GET /api/dashboard?kind=game&page=1", route: "/api/dashboard", pages: "GET /api/dashboard?kind=game", page: 1}},
		{"a directory normalized", "/api/organizations?pageSize=500&filter=verified&filter=has-packages&page=3",
			match{key: "GET /api/organizations?filter=has-packages&filter=verified&page=3&pageSize=100", route: "/api/organizations",
				pages: "GET /api/organizations?filter=has-packages&filter=verified&pageSize=100", page: 3}},
		{"a pageSize within the bound", "/api/dashboard?pageSize=99&page=2",
			match{key: "GET /api/dashboard?page=2&pageSize=99", route: "/api/dashboard", pages: "GET /api/dashboard?pageSize=99", page: 2}},
		{"filters kept in order elsewhere", "/api/search?q=b&filter=z&filter=a", match{key: "GET /api/search?filter=z&filter=a&q=b", route: "/api/search"}},
		{"scrubbed and hidden", "/api/search?token=t&secret=s&q=x", match{key: "GET /api/search?q=x&secret=REDACTED", route: "/api/search"}},
		{"no endpoint", "/robots.txt?b=1&a=2", match{key: "GET /robots.txt?a=2&b=1"}},
		{"no path", "", match{key: "GET "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := url.Parse(tc.url)
			require.NoError(t, err)
			assert.Equal(t, tc.want, matchOf("GET", u, removed, hidden))
		})
	}
}

func TestNearest(t *testing.T) {
	t.Parallel()
	keys := []string{"GET /api/packages/game/alpha", "GET /api/packages/game/beta", "GET /api/search?q=alpha", "GET /api/servers/1"}
	assert.Equal(t, []string{"GET /api/packages/game/alpha", "GET /api/packages/game/beta"}, nearest("GET /api/packages/game/alpho", keys, 2))
	assert.Equal(t, []string{keys[1], keys[0]}, nearest("GET /api/packages/game/xeta", keys[:2], 5), "fewer keys than asked")
	assert.Empty(t, nearest("GET /", nil, 3))
	assert.Equal(t, 3, distance("kitten", "sitting"))
	assert.Equal(t, 0, distance("", ""))
	assert.Equal(t, 4, distance("", "abcd"))
}
