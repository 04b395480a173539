package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCachingVerdict(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		header http.Header
		says   string
	}{
		{http.Header{"Cache-Control": {"no-store"}, "Etag": {`"x"`}}, "never cached"},
		{http.Header{"Cache-Control": {"max-age=60"}}, "served from the cache while fresh"},
		{http.Header{"Cache-Control": {"no-cache"}, "Etag": {`"x"`}}, "revalidated"},
		{http.Header{"Last-Modified": {"Mon, 23 Nov 2026 00:00:00 GMT"}}, "revalidated"},
		{http.Header{}, "no caching possible"},
	} {
		assert.Contains(t, verdict(tt.header), tt.says, "%v", tt.header)
	}
}
