package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// cachingProbes are the requests whose caching headers drift reports: a
// directory page, which a walk re-reads, and the description itself.
var cachingProbes = []string{"/api/dashboard?page=1", "/openapi.json"}

// printCaching reports the caching headers the service sends, and what the
// SDK's cache can do with them: serve a fresh response without a request,
// revalidate a stale one with a 304, or nothing.
func printCaching(ctx context.Context, w io.Writer, base string) error {
	fmt.Fprintln(w, "\nCaching headers the service sends:")
	for _, path := range cachingProbes {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+path, nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		h := resp.Header
		cc := h.Get("Cache-Control")
		fmt.Fprintf(w, "  GET %-24s Cache-Control %-18q ETag %-3s Last-Modified %-3s -> %s\n", path, clean(cc),
			yes(h.Get("ETag") != ""), yes(h.Get("Last-Modified") != ""), verdict(h))
	}
	return nil
}

// verdict says what the SDK's cache does with a response with header h.
func verdict(h http.Header) string {
	cc := strings.ToLower(h.Get("Cache-Control"))
	validators := h.Get("ETag") != "" || h.Get("Last-Modified") != ""
	switch {
	case strings.Contains(cc, "no-store"):
		return "never cached: every read is a full request"
	case strings.Contains(cc, "max-age") && !strings.Contains(cc, "no-cache"):
		return "served from the cache while fresh, then revalidated"
	case validators:
		return "revalidated: an unchanged read costs a 304"
	}
	return "no caching possible: no freshness and no validator"
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// clean is header text from the service, shown safely.
func clean(s string) string { return gamedata.NewUntrusted(s).String() }
