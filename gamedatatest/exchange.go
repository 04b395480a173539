package gamedatatest

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/internal/har"
)

// exchange is one request of a recording and its answer, scrubbed.
type exchange struct {
	match
	// seq orders the exchanges of one key: the order they were sent in,
	// or their place in the file.
	seq    int
	method string
	// target is the escaped path and the scrubbed query, as sent: what
	// the stored URL holds after its origin.
	target  string
	proto   string
	request http.Header
	status  int
	header  http.Header
	body    []byte
	// done is set once the whole answer arrived: an exchange that met a
	// transport error, or whose body was cut short, is never kept.
	done bool
	// failure says why an answer that arrived cannot be kept, which
	// saving reports.
	failure error
}

// transient reports whether x is a failure that the same request may not
// meet again: a throttle or a server error.
func (x *exchange) transient() bool {
	return x.status == http.StatusTooManyRequests || x.status >= 500
}

// at names x in an error: its method and path, without the query, whose
// values a caller may not want repeated.
func (x *exchange) at() string {
	path, _, _ := strings.Cut(x.target, "?")
	return x.method + " " + path
}

// recordedOrigin is the origin of every stored URL. A recording keeps no
// host: it does not depend on where it was made (a twin's port, a proxy),
// and names no private address.
const recordedOrigin = "http://recorded.invalid"

// startedAt is the first entry's startedDateTime. A recording stores no
// times, so that two of one run are the same file: each entry starts a
// millisecond after the one before it, in the file's order, which a
// viewer then lists as it is.
var startedAt = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)

// kept returns the exchanges of xs a recording stores, sorted by key and,
// within a key, in the order they were sent, each numbered in its key:
// those whose whole answer arrived, but a throttle or a server error that
// a later exchange of the same key recovered from (see keptOfKey).
func kept(xs []*exchange) []*exchange {
	byKey := map[string][]*exchange{}
	for _, x := range xs {
		if x.done && x.failure == nil {
			byKey[x.key] = append(byKey[x.key], x)
		}
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []*exchange
	for _, k := range keys {
		out = append(out, keptOfKey(byKey[k])...)
	}
	return out
}

// keptOfKey returns the exchanges of one key a recording stores, in the
// order they were sent, numbered: a throttle or a server error is left
// out when a later exchange recovered from it. A 304 refreshes the
// headers of the 200 before it, as a cache does (RFC 9111, 4.3.4), and
// stays, so that replay answers the requests of the key in their order.
func keptOfKey(group []*exchange) []*exchange {
	slices.SortStableFunc(group, func(a, b *exchange) int { return cmp.Compare(a.seq, b.seq) })
	var keep []*exchange
	recovered := false
	for _, x := range slices.Backward(group) {
		if x.transient() && recovered {
			continue
		}
		recovered = recovered || !x.transient()
		keep = append(keep, x)
	}
	slices.Reverse(keep)
	var last *exchange // the 200 a 304 refreshes
	for i, x := range keep {
		switch x.status {
		case http.StatusOK:
			last = x
		case http.StatusNotModified:
			if last != nil {
				for name, values := range x.header {
					last.header[name] = slices.Clone(values)
				}
			}
		}
		x.seq = i
	}
	return keep
}

// entry is x as the i-th entry of a HAR log.
func (x *exchange) entry(i int) har.Entry {
	_, rawQuery, _ := strings.Cut(x.target, "?")
	bodySize := -1 // the body is stored decoded: its size on the wire is not known
	if x.status == http.StatusNotModified {
		bodySize = 0
	}
	return har.Entry{
		StartedDateTime: startedAt.Add(time.Duration(i) * time.Millisecond).Format("2006-01-02T15:04:05.000Z07:00"),
		Request: har.Request{
			Method: x.method, URL: recordedOrigin + x.target, HTTPVersion: x.proto,
			Cookies: []har.NameValue{}, Headers: har.Headers(x.request), QueryString: har.Query(rawQuery),
			HeadersSize: -1, BodySize: 0,
		},
		Response: har.Response{
			Status: x.status, StatusText: http.StatusText(x.status), HTTPVersion: x.proto,
			Cookies: []har.NameValue{}, Headers: har.Headers(x.header),
			Content:     har.NewContent(x.body, x.header.Get("Content-Type")),
			RedirectURL: x.header.Get("Location"), HeadersSize: -1, BodySize: bodySize,
		},
		Route: x.route, MatchKey: x.key, Sequence: x.seq,
	}
}

// exchangeOf is the exchange of an entry read from a file, checked and
// scrubbed by s: an entry that holds a cookie, or a header or parameter
// that looks like a credential and that s does not allow, is refused.
func (s *scrubRules) exchangeOf(e har.Entry) (*exchange, error) {
	u, err := url.Parse(e.Request.URL)
	if err != nil {
		return nil, errors.New("its request URL does not parse") // the parser's error would quote it, credentials and all
	}
	if len(e.Request.Cookies) > 0 || len(e.Response.Cookies) > 0 {
		return nil, errors.New("it holds cookies, which a recording never stores")
	}
	body, err := e.Response.Content.Bytes()
	if err != nil {
		return nil, fmt.Errorf("its response content does not decode: %w", err)
	}
	x := &exchange{
		seq: e.Sequence, method: e.Request.Method, target: u.EscapedPath(), proto: e.Response.HTTPVersion,
		request: har.Header(e.Request.Headers), status: e.Response.Status, header: har.Header(e.Response.Headers),
		body: body, done: true,
	}
	if u.RawQuery != "" {
		x.target += "?" + u.RawQuery
	}
	if where, name := x.leftover(s); name != "" {
		return nil, &CredentialError{Request: x.at(), Where: where, Name: name, InFile: true}
	}
	x.request, x.header = s.header(x.request), s.header(x.header)
	x.target = u.EscapedPath()
	if q := s.rawQuery(u.RawQuery); q != "" {
		x.target += "?" + q
	}
	x.match = matchOf(x.method, u, s.removesQuery, s.hidesQuery)
	return x, nil
}

// leftover returns the first name of x that looks like a credential and
// that the rules s do not allow, and where it is: "request
// header", "response header" or "query parameter". An exchange the rules
// scrubbed holds none they remove; one read from a file may, and is
// refused for it.
func (x *exchange) leftover(s *scrubRules) (where, name string) {
	for _, h := range []struct {
		where  string
		header http.Header
	}{{"request header", x.request}, {"response header", x.header}} {
		for _, nv := range har.Headers(h.header) { // sorted: the first name is always the same one
			if credentialLike(nv.Name) && !slices.Contains(s.allowHeaders, http.CanonicalHeaderKey(nv.Name)) {
				return h.where, nv.Name
			}
		}
	}
	_, rawQuery, _ := strings.Cut(x.target, "?")
	for _, p := range har.Query(rawQuery) {
		if s.hidesQuery(p.Name) {
			return "query parameter", p.Name
		}
	}
	return "", ""
}
