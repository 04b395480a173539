package httpcache

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestStorable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header map[string]string
		want   bool
	}{
		{"max-age", 200, map[string]string{"Cache-Control": "max-age=60"}, true},
		{"private", 200, map[string]string{"Cache-Control": "private, max-age=60"}, true},
		{"etag only", 200, map[string]string{"Etag": `"x"`}, true},
		{"last-modified only", 200, map[string]string{"Last-Modified": "Sun, 22 Nov 2026 10:00:00 GMT"}, true},
		{"expires only", 200, map[string]string{"Expires": "Sun, 22 Nov 2026 13:00:00 GMT"}, true},
		{"no-cache with etag", 200, map[string]string{"Cache-Control": "no-cache", "Etag": `"x"`}, true},
		{"nothing", 200, nil, false},
		{"no-cache alone", 200, map[string]string{"Cache-Control": "no-cache"}, false},
		{"no-store", 200, map[string]string{"Cache-Control": "no-store, max-age=60", "Etag": `"x"`}, false},
		{"vary accept-encoding", 200, map[string]string{"Vary": "Accept-Encoding", "Etag": `"x"`}, true},
		{"vary other", 200, map[string]string{"Vary": "Accept-Encoding, Accept-Language", "Etag": `"x"`}, false},
		{"vary star", 200, map[string]string{"Vary": "*", "Etag": `"x"`}, false},
		{"status 203", 203, map[string]string{"Cache-Control": "max-age=60"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := headerOf(tc.header)
			assert.Equal(t, tc.want, storable(tc.status, h, parseCacheControl(h)))
			_, ok := NewEntry(tc.status, h, time.Time{}, time.Time{}, nil)
			assert.Equal(t, tc.want, ok, "NewEntry")
		})
	}
}

func TestFreshnessAndAge(t *testing.T) {
	received := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	date := received.Format(http.TimeFormat)
	for _, tc := range []struct {
		name    string
		header  map[string]string
		delay   time.Duration // between request and response
		after   time.Duration // from the response to the check
		fresh   bool
		onError bool
		wantAge time.Duration
	}{
		{name: "max-age young", header: map[string]string{"Cache-Control": "max-age=60", "Date": date}, after: 59 * time.Second, fresh: true, wantAge: 59 * time.Second},
		{name: "max-age old", header: map[string]string{"Cache-Control": "max-age=60", "Date": date}, after: 60 * time.Second, wantAge: 60 * time.Second},
		{name: "age header counts", header: map[string]string{"Cache-Control": "max-age=60", "Age": "50", "Date": date}, after: 11 * time.Second, wantAge: 61 * time.Second},
		{name: "response delay counts", header: map[string]string{"Cache-Control": "max-age=60", "Date": date}, delay: 5 * time.Second, after: 56 * time.Second, wantAge: 61 * time.Second},
		{name: "old date counts", header: map[string]string{"Cache-Control": "max-age=60", "Date": received.Add(-30 * time.Second).Format(http.TimeFormat)}, after: 31 * time.Second, wantAge: 61 * time.Second},
		{name: "expires", header: map[string]string{"Expires": received.Add(time.Minute).Format(http.TimeFormat), "Date": date}, after: 59 * time.Second, fresh: true, wantAge: 59 * time.Second},
		{name: "max-age beats expires", header: map[string]string{"Cache-Control": "max-age=0", "Expires": received.Add(time.Hour).Format(http.TimeFormat)}, after: time.Second, wantAge: time.Second},
		{name: "invalid max-age is stale", header: map[string]string{"Cache-Control": "max-age=soon", "Expires": received.Add(time.Hour).Format(http.TimeFormat)}, after: time.Second, wantAge: time.Second},
		{name: "invalid expires is stale", header: map[string]string{"Expires": "0"}, wantAge: 0},
		{name: "no heuristic", header: map[string]string{"Last-Modified": received.Add(-24 * time.Hour).Format(http.TimeFormat)}, after: time.Second, wantAge: time.Second},
		{name: "no-cache", header: map[string]string{"Cache-Control": "no-cache, max-age=60"}, after: time.Second, wantAge: time.Second},
		{name: "stale-if-error within", header: map[string]string{"Cache-Control": "max-age=60, stale-if-error=60"}, after: 119 * time.Second, onError: true, wantAge: 119 * time.Second},
		{name: "stale-if-error past", header: map[string]string{"Cache-Control": "max-age=60, stale-if-error=60"}, after: 120 * time.Second, wantAge: 120 * time.Second},
		{name: "stale-if-error, must-revalidate", header: map[string]string{"Cache-Control": "max-age=60, stale-if-error=60, must-revalidate"}, after: 61 * time.Second, wantAge: 61 * time.Second},
		{name: "stale-if-error, no-cache", header: map[string]string{"Cache-Control": "no-cache, stale-if-error=60"}, after: time.Second, wantAge: time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := testEntry(headerOf(tc.header), received.Add(-tc.delay), received)
			now := received.Add(tc.after)
			assert.Equal(t, tc.wantAge, e.age(now), "age")
			assert.Equal(t, tc.fresh, e.Fresh(now), "fresh")
			assert.Equal(t, tc.onError, e.ServableOnError(now), "servable on error")
		})
	}
}

func TestConditionalAndSelects(t *testing.T) {
	e := testEntry(http.Header{"Etag": {`"a"`}, "Last-Modified": {"Sun, 22 Nov 2026 10:00:00 GMT"}}, time.Time{}, time.Time{})
	assert.Equal(t, http.Header{"If-None-Match": {`"a"`}, "If-Modified-Since": {"Sun, 22 Nov 2026 10:00:00 GMT"}}, e.Conditional())
	assert.Nil(t, testEntry(http.Header{"Cache-Control": {"max-age=5"}}, time.Time{}, time.Time{}).Conditional())
	var none *Entry
	assert.Nil(t, none.Conditional(), "no entry, no validator")

	assert.True(t, e.Selects(http.Header{}))
	assert.True(t, e.Selects(http.Header{"Etag": {`"a"`}}))
	assert.False(t, e.Selects(http.Header{"Etag": {`"b"`}}))
}

// testEntry is the entry of a 200 response with headers h, storable or
// not, so that the freshness rules can be tested on any headers.
func testEntry(h http.Header, requested, received time.Time) *Entry {
	e := &Entry{status: http.StatusOK, header: http.Header{}}
	return e.Revalidated(h, requested, received)
}

// headerOf is a header of one value per field, the fields canonicalised.
func headerOf(fields map[string]string) http.Header {
	h := http.Header{}
	for k, v := range fields {
		h.Set(k, v)
	}
	return h
}
