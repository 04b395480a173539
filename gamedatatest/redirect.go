package gamedatatest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata/gamedatatest/internal/catalog"
)

// directory answers one page of a directory: the page, or a redirect to
// the last page when the page asked for is beyond it.
func directory(r *http.Request, p catalog.Page) reply {
	if p.Body != nil {
		return reply{status: http.StatusOK, body: p.Body}
	}
	loc := withPage(r, p.Last)
	return reply{
		status: http.StatusFound,
		header: http.Header{"Location": {loc}},
		body:   catalog.Encode(redirectJSON{Error: "page out of range", LastPage: p.Last, Location: loc, Page: p.Asked}),
	}
}

// withPage is the request's own path and query with every page parameter
// replaced by one page=n, in place. It uses the path as the client sent it,
// so it stays right when the handler is mounted under a prefix.
func withPage(r *http.Request, n int) string {
	path, rawQuery := r.URL.EscapedPath(), r.URL.RawQuery
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil && r.RequestURI != "" {
		path, rawQuery = u.EscapedPath(), u.RawQuery
	}
	var out []string
	done := false
	for _, pair := range strings.Split(rawQuery, "&") {
		if pair == "" {
			continue
		}
		key, _, _ := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(key); err == nil && k == "page" {
			if done {
				continue
			}
			pair, done = "page="+strconv.Itoa(n), true
		}
		out = append(out, pair)
	}
	if !done {
		out = append(out, "page="+strconv.Itoa(n))
	}
	return path + "?" + strings.Join(out, "&")
}
