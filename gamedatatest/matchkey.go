package gamedatatest

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// match is what a recording matches a request by.
type match struct {
	// key is the method, the endpoint's path with the values of its path
	// parameters in place, each escaped one way whatever way it was sent,
	// and the query as the service normalizes it, without the parameters
	// the recording scrubs: "GET /api/dashboard?kind=game&page=1&pageSize=100".
	// Headers take no part.
	key string
	// route is the endpoint's route template, "" for a path that is no
	// endpoint's.
	route string
	// pages is, for a directory, key without its page: the key its pages
	// share; "" for anything else.
	pages string
	// page is the page a directory request asks for.
	page int
}

// matchOf is the match of a request for u with method. removed says which
// query parameters the recording removes; hidden, which it keeps but whose
// values it must not show, since they look like credentials.
func matchOf(method string, u *url.URL, removed, hidden func(name string) bool) match {
	q, _ := url.ParseQuery(u.RawQuery) // what parses: the rest is the service's to refuse
	for name := range q {
		switch {
		case removed(name):
			delete(q, name)
		case hidden(name):
			q[name] = []string{redacted}
		}
	}
	e, args, ok := routeOf(u.EscapedPath())
	if !ok {
		return match{key: keyOf(method, u.EscapedPath(), q)}
	}
	path, _ := e.Expand(args...)
	m := match{route: e.Path}
	if slices.Contains(e.Params, "page") {
		// A directory, normalized as the service does: a missing page is
		// the first, a page larger than the largest is the largest, and
		// repeated filters combine in any order.
		if q.Get("page") == "" {
			q.Set("page", "1")
		}
		if n, err := strconv.Atoi(q.Get("pageSize")); err == nil && n > catalog.MaxPageSize {
			q.Set("pageSize", strconv.Itoa(catalog.MaxPageSize))
		}
		slices.Sort(q["filter"])
		m.page, _ = strconv.Atoi(q.Get("page"))
		page := q["page"]
		delete(q, "page")
		m.pages = keyOf(method, path, q)
		q["page"] = page
	}
	m.key = keyOf(method, path, q)
	return m
}

// redacted stands for the value of a query parameter that looks like a
// credential, in a match key.
const redacted = "REDACTED"

func keyOf(method, path string, q url.Values) string {
	if len(q) == 0 {
		return method + " " + path
	}
	return method + " " + path + "?" + q.Encode()
}

// routeOf is the endpoint whose path ends escapedPath, and the values of
// its path parameters: the path under the base URL, whatever prefix the
// base URL's own path put before it.
func routeOf(escapedPath string) (manifest.Endpoint, []string, bool) {
	for rest := escapedPath; strings.HasPrefix(rest, "/"); {
		if e, args, ok := manifest.Match(rest); ok {
			return e, args, true
		}
		i := strings.IndexByte(rest[1:], '/')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
	}
	return manifest.Endpoint{}, nil, false
}

// nearest returns the n keys of keys closest to key, by edit distance,
// the closest first, ties in the order of the keys.
func nearest(key string, keys []string, n int) []string {
	type scored struct {
		key string
		d   int
	}
	all := make([]scored, len(keys))
	for i, k := range keys {
		all[i] = scored{k, distance(key, k)}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(a.d, b.d) })
	out := []string{}
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.key)
	}
	return out
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
