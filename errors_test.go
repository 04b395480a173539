package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// hostileName is a member name that retitles a terminal (OSC 0 … BEL) and
// clears it (CSI 2 J), then holds an 8-bit CSI (C1 0x9b), a right-to-left
// override, a zero-width space and a byte that is not UTF-8. hostileJSON
// is the same name as it stands in a JSON body: the C0 controls escaped,
// as JSON requires, the rest raw.
const (
	hostileName = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u200b\xffx"
	hostileJSON = `\u001b]0;pwned\u0007\u001b[2J` + "\u009b31m\u202eevil\u200b\xffx"
)

// shownSafely fails the test when s holds anything the sanitizer would
// take out: a control, a bidi control, an invisible character, invalid
// UTF-8.
func shownSafely(t *testing.T, s, what string) {
	t.Helper()
	assert.True(t, utf8.ValidString(s), "%s is valid UTF-8: %q", what, s)
	assert.Equal(t, sanitize.String(s), s, "%s holds nothing the sanitizer takes out", what)
	assert.NotContains(t, s, "pwned\x07", what)
}

// Names the service chose reach DecodeError.Member and every message only
// quoted: whatever a name holds, it cannot steer a terminal or a log.
func TestServiceChosenNamesAreQuoted(t *testing.T) {
	t.Parallel()
	// The name as the decoders read it: the byte that is not UTF-8
	// becomes U+FFFD, as encoding/json makes it.
	viaJSON := strings.ReplaceAll(hostileName, "\xff", "\ufffd")
	history := func(body string) error {
		_, f, err := decodeFields([]byte(body))
		require.NoError(t, err)
		_, err = decodeHistory(f)
		return err
	}
	summaries := func(body string) error {
		_, f, err := decodeFields([]byte(body))
		require.NoError(t, err)
		_, err = decodeSummaries(f)
		return err
	}
	for _, tt := range []struct {
		name, body string
		decode     func(string) error
		member     string // "" when the message names the member
	}{
		{
			name:   "directory array found by its shape",
			body:   `{"` + hostileJSON + `":[{"kind":"game","ident":"a"},7],"pagination":{"hasNext":false}}`,
			decode: func(b string) error { _, err := decodePage([]byte(b), 1, decodeDashboardEntry); return err },
			member: strconv.Quote(viaJSON) + "[1]",
		},
		{
			name:   "directory with several arrays",
			body:   `{"` + hostileJSON + `":[],"b":[],"pagination":{"hasNext":false}}`,
			decode: func(b string) error { _, err := decodePage([]byte(b), 1, decodeDashboardEntry); return err },
		},
		{
			name:   "history found by its shape",
			body:   `{"` + hostileJSON + `":[{"capturedAt":"2026-11-20T10:00:00Z"},{"capturedAt":5}]}`,
			decode: history,
			member: strconv.Quote(viaJSON) + "[1]",
		},
		{
			name:   "several histories",
			body:   `{"` + hostileJSON + `":[{"capturedAt":"2026-11-20T10:00:00Z"}],"b":[{"capturedAt":"2026-11-20T10:00:00Z"}]}`,
			decode: history,
		},
		{
			name:   "range summary keyed by the service",
			body:   `{"summary":{"` + hostileJSON + `":3}}`,
			decode: summaries,
			member: "summary[" + strconv.Quote(viaJSON) + "]",
		},
		{
			name:   "activity points found by their shape",
			body:   `{"` + hostileJSON + `":[[1000,1,0,null,null,0,0],[1]]}`,
			decode: func(b string) error { _, err := decodeActivityHistory([]byte(b)); return err },
			member: strconv.Quote(viaJSON) + "[1]",
		},
		{
			name:   "several arrays of activity points",
			body:   `{"` + hostileJSON + `":[[1]],"b":[[1]]}`,
			decode: func(b string) error { _, err := decodeActivityHistory([]byte(b)); return err },
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.decode(tt.body)
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			if tt.member != "" {
				assert.Equal(t, tt.member, de.Member)
			} else {
				assert.Contains(t, err.Error(), `"\x1b]0;pwned\a\x1b[2J`, "the name is quoted in the message")
			}
			shownSafely(t, de.Member, "Member")
			shownSafely(t, err.Error(), "the message")
		})
	}
}

// The same through a client: a walk's error names the directory's array
// only quoted.
func TestWalkErrorQuotesTheArraysName(t *testing.T) {
	t.Parallel()
	// The twin names its array items: Respond sends a page that does not.
	twin, _ := newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Answer: gamedatatest.Respond(gamedatatest.Response{
		Body: []byte(`{"` + hostileJSON + `":[{"title":"?"}],"pagination":{"hasNext":false}}`),
	})}))
	c := newTestClient(t, twin.URL)
	_, err := collect(c.Dashboard.All(context.Background(), nil, nil))
	var de *DecodeError
	require.ErrorAs(t, err, &de)
	assert.True(t, strings.HasPrefix(de.Member, `"\x1b]0;pwned`), de.Member)
	shownSafely(t, err.Error(), "the walk's error")
}

// strconv.Quote, which quotes the names, escapes every rune the sanitizer
// would take out (C0 and C1 controls, DEL, bidi controls, invisible
// characters, line and paragraph separators) and every byte that is not
// UTF-8: its output is left alone by the sanitizer, which is why a quoted
// name is safe to show.
func TestQuoteEscapesWhatTheSanitizerRemoves(t *testing.T) {
	t.Parallel()
	checked := 0
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) || sanitize.Unchanged(string(r)) {
			continue
		}
		checked++
		q := strconv.Quote(string(r))
		if sanitize.String(q) != q || strings.ContainsRune(q, r) {
			t.Errorf("strconv.Quote(%U) = %s leaves it raw", r, q)
		}
	}
	assert.Greater(t, checked, 200, "controls, C1, bidi, invisible and tag characters were all checked")
	for b := 0x80; b <= 0xff; b++ {
		s := string([]byte{'a', byte(b), 'z'})
		if utf8.ValidString(s) {
			continue
		}
		q := strconv.Quote(s)
		assert.True(t, utf8.ValidString(q) && sanitize.String(q) == q, "byte %#x: %s", b, q)
	}
}

// The package's error types pass their messages through the sanitizer,
// whatever an error they wrap says.
func TestErrorMessagesAreSanitized(t *testing.T) {
	t.Parallel()
	raw := errors.New("redirected to /x?" + hostileName)
	for _, err := range []error{
		&PageError{Page: 2, Err: raw},
		&ItemError{Index: 1, Err: raw},
		&DecodeError{URL: "https://h/", Member: "m", Err: raw},
		&DecodeError{URL: "https://h/", Err: raw},
		&APIError{StatusCode: 500, Method: "GET", URL: "https://h/", Body: []byte(hostileName)},
	} {
		shownSafely(t, err.Error(), fmt.Sprintf("the message of a %T", err))
	}
}

// A redirect's target, which the service chose, reaches List's error only
// sanitized.
func TestRedirectTargetInErrorsIsSanitized(t *testing.T) {
	t.Parallel()
	// The twin's redirects name the request's own URL: Respond sends one
	// that names a hostile one.
	twin, _ := newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Answer: gamedatatest.Respond(gamedatatest.Response{
		Status: http.StatusFound,
		Header: http.Header{"Location": {"/api/dashboard?page=1&x=\u009b2J\u202eevil\u200b"}},
	})}))
	c := newTestClient(t, twin.URL)
	_, err := c.Dashboard.List(context.Background(), &DashboardOptions{ListOptions: ListOptions{Page: 2}})
	require.ErrorIs(t, err, ErrPageOutOfRange)
	assert.Contains(t, err.Error(), "was redirected to")
	shownSafely(t, err.Error(), "List's error")
}

// An *APIError's message ends with what it says, never with a space: a
// status Go has no text for, and a body of white space or of what the
// sanitizer removes, add nothing.
func TestAPIErrorMessage(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  APIError
		want string
	}{
		{APIError{StatusCode: 404, Method: "GET", URL: "u"}, "gamedata: GET u: 404 Not Found"},
		{APIError{StatusCode: 599, Method: "GET", URL: "u"}, "gamedata: GET u: 599"},
		{APIError{StatusCode: 503, Method: "GET", URL: "u", Attempts: 3, RetryAfter: time.Hour}, "gamedata: GET u after 3 attempts: 503 Service Unavailable (retry after 1h0m0s)"},
		{APIError{StatusCode: 404, Method: "GET", URL: "u", Body: []byte("nope\n")}, "gamedata: GET u: 404 Not Found: nope"},
		{APIError{StatusCode: 404, Method: "GET", URL: "u", Body: []byte(" {\"a\": 1}\r\n")}, `gamedata: GET u: 404 Not Found: {"a": 1}`},
		{APIError{StatusCode: 500, Method: "GET", URL: "u", Body: []byte(" \t\n")}, "gamedata: GET u: 500 Internal Server Error"},
		{APIError{StatusCode: 500, Method: "GET", URL: "u", Body: []byte("\u200b\u202e")}, "gamedata: GET u: 500 Internal Server Error"},
	} {
		assert.Equal(t, tt.want, tt.err.Error())
	}
}

// A panic in the caller's code (here a middleware) reaches the caller's
// goroutine, whichever goroutine of the SDK ran it, so the caller's
// recover sees it and the program does not die from a goroutine it
// cannot reach. Where the SDK ran it in a goroutine of its own, the panic
// is a *PanicError that holds the value and where it began.
func TestPanicReachesTheCallersGoroutine(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	for _, tt := range []struct {
		name    string
		carried bool // the panic crossed from a goroutine of the SDK
		run     func(ctx context.Context, c *Client, twin *gamedatatest.Server)
	}{
		{"List, in the caller's goroutine", false, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			_, _ = c.Dashboard.List(ctx, &DashboardOptions{ListOptions: ListOptions{Page: 2, PageSize: 1}})
		}},
		{"All, the page fetched ahead", true, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			for range c.Dashboard.All(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 1}}, nil) {
			}
		}},
		{"GetMany, a worker", true, func(ctx context.Context, c *Client, twin *gamedatatest.Server) {
			refs := []PackageRef{}
			for _, e := range twin.Catalog().Packages {
				refs = append(refs, PackageRef{e.Kind, e.Ident})
			}
			for range c.Packages.GetMany(ctx, refs, 2) {
			}
		}},
		{"Packages.Watch, which polls in the caller's goroutine", false, func(ctx context.Context, c *Client, twin *gamedatatest.Server) {
			e := twin.Catalog().Packages[0]
			for range c.Packages.Watch(ctx, []PackageRef{{e.Kind, e.Ident}}, time.Hour) {
			}
		}},
		{"Dashboard.Watch, a round's page", true, func(ctx context.Context, c *Client, _ *gamedatatest.Server) {
			for range c.Dashboard.Watch(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 1}}, time.Hour) {
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin, _ := newTwin(t)
			panicky := func(req *http.Request, next Next) (*http.Response, error) {
				if req.URL.Query().Get("page") != "2" && req.URL.Path == "/api/dashboard" {
					return next.RoundTrip(req)
				}
				panic(boom)
			}
			c := newTestClient(t, twin.URL, WithMiddleware(panicky))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			recovered := func() (v any) {
				defer func() { v = recover() }()
				tt.run(ctx, c, twin)
				return nil
			}()
			require.NotNil(t, recovered, "the panic reached the caller")
			if !tt.carried {
				assert.Equal(t, boom, recovered)
				return
			}
			pe, ok := recovered.(*PanicError)
			require.True(t, ok, "a *PanicError: %v", recovered)
			assert.Equal(t, boom, pe.Value)
			assert.ErrorIs(t, pe, boom)
			assert.Contains(t, string(pe.Stack), "errors_test.go", "the stack where it began")
			assert.True(t, strings.HasPrefix(pe.Error(), "gamedata: panic in a goroutine of the SDK: boom\n"), pe.Error())
		})
	}
}
