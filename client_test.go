package gamedata

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/gamedata-go/gamedata/internal/clock"
	"github.com/gamedata-go/gamedata/internal/manifest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// A refused base URL is said without the secrets it may carry: the
// user information, the query and the fragment, whether it parses or not.
func TestBaseURLErrorsSayNoSecret(t *testing.T) {
	t.Parallel()
	const secret = "KvSecret7"
	for raw, shown := range map[string]string{
		"https://gd:" + secret + "@example.com/":           `"https://…@example.com/" carries credentials`,
		"https://example.com/?password=" + secret:          `"https://example.com/?…" has a query or fragment`,
		"https://example.com/#token=" + secret:             `"https://example.com/?…" has a query or fragment`,
		"ftp://gd:" + secret + "@example.com/?t=" + secret: `"ftp://…@example.com/?…": want an absolute`,
		"http://[::1" + secret + "@x?t=" + secret:          `"http://…@x?…": want an absolute`,
		"gd:" + secret + "@example.com":                    `"…@example.com": want an absolute`,
		"https://?token=" + secret:                         `"https://?…" has no host`,
	} {
		_, err := NewClient(raw)
		require.ErrorIs(t, err, ErrInvalidArgument, raw)
		assert.NotContains(t, err.Error(), secret, raw)
		assert.Contains(t, err.Error(), shown, raw)
	}
}

func TestNewClientRefusesBadBaseURLs(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		"",
		"/api",
		"example.com",
		"ftp://example.com/",
		"file:///etc/passwd",
		"https://",
		"https://user:secret@example.com/",
		"https://example.com/?x=1",
		"https://example.com/#frag",
		"http://[::1",
		"127.0.0.1:8080",
		"localhost",
		"host:port",
		"localhost:8080/api",
	} {
		c, err := NewClient(raw)
		assert.ErrorIs(t, err, ErrInvalidArgument, "%q", raw)
		assert.Nil(t, c)
	}
	for _, raw := range []string{"127.0.0.1:8080", "localhost", "host:port", "example.com", "/api"} {
		_, err := NewClient(raw)
		assert.EqualError(t, err, fmt.Sprintf("gamedata: base URL %q: want an absolute http or https URL, such as https://host/", raw))
	}
	for _, raw := range []string{"https://example.com", "http://127.0.0.1:8080/", "https://example.com/prefix/"} {
		_, err := NewClient(raw)
		assert.NoError(t, err, "%q", raw)
	}
}

func TestNewClientRefusesBadOptions(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]Option{
		"nil http client":    WithHTTPClient(nil),
		"negative retries":   WithRetryMax(-1),
		"negative backoff":   WithBackoff(-time.Second, time.Second),
		"min above max":      WithBackoff(2*time.Second, time.Second),
		"zero rate":          WithRateLimit(0, 1),
		"zero burst":         WithRateLimit(5, 0),
		"empty user agent":   WithUserAgent(""),
		"CR LF in the agent": WithUserAgent("tool/1\r\nX-Evil: 1"),
		"NUL in the agent":   WithUserAgent("tool\x00"),
		"zero body limit":    WithMaxResponseBytes(0),
		"negative body cap":  WithMaxResponseBytes(-5),
	} {
		_, err := NewClient("https://example.com", opt)
		assert.ErrorIs(t, err, ErrInvalidArgument, name)
	}
	_, err := NewClient("https://example.com", WithRateLimit(rate.Inf, 0), WithRetryMax(0), WithLogger(nil))
	assert.NoError(t, err, "rate.Inf needs no burst; 0 retries and a nil logger are fine")
}

func TestBasePathPrefixAndHeaders(t *testing.T) {
	t.Parallel()
	rt, log := replay(t, "http://fixtures.invalid/deep/prefix/")
	for _, base := range []string{"http://fixtures.invalid/deep/prefix", "http://fixtures.invalid/deep/prefix/"} {
		c := newTestClient(t, base, WithUserAgent("my-tool/1.0"), WithHTTPClient(&http.Client{Transport: rt}))
		_, err := c.Packages.Get(context.Background(), KindGame, "space-miner")
		require.NoError(t, err, base)
	}
	require.Equal(t, 2, log.len())
	for _, r := range log.all() {
		assert.Equal(t, "/deep/prefix/api/packages/game/space-miner", r.URL.EscapedPath())
		assert.Equal(t, "my-tool/1.0", r.Header.Get("User-Agent"))
		assert.Equal(t, "application/json", r.Header.Get("Accept"))
		assert.Empty(t, r.Header.Get("Authorization"), "the client sends no credential")
	}
}

func TestDefaultUserAgent(t *testing.T) {
	t.Parallel()
	rt, log := replay(t, replayBase)
	_, err := newTestClient(t, replayBase, WithHTTPClient(&http.Client{Transport: rt})).Servers.Get(context.Background(), "203.0.113.7:27015")
	require.NoError(t, err)
	assert.Equal(t, "gamedata-go/"+Version, log.all()[0].Header.Get("User-Agent"))
}

func TestUsesTheGivenHTTPClientTransport(t *testing.T) {
	t.Parallel()
	rt, _ := replay(t, replayBase)
	var seen int
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen++
		return rt.RoundTrip(r)
	})}
	_, err := newTestClient(t, replayBase, WithHTTPClient(hc)).Servers.Get(context.Background(), "203.0.113.7:27015")
	require.NoError(t, err)
	assert.Equal(t, 1, seen)
}

func TestLoggerIsSilentUnlessGiven(t *testing.T) {
	t.Parallel()
	silent := newTestClient(t, "https://example.com")
	assert.Nil(t, silent.newCall(context.Background(), "/", callConfig{}).engine().Logger, "retryablehttp logs nothing only when its Logger is nil")

	twin, id := newTwin(t, faults(gamedatatest.Fault502, 1))
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	logged := newTestClient(t, twin.URL, WithLogger(logger))
	assert.Nil(t, logged.newCall(context.Background(), "/", callConfig{}).engine().Logger, "the retry engine's own lines never reach the caller's logger")
	_, err := logged.Servers.Get(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(buf.String(), `msg="gamedata: attempt"`), "a line an attempt")
	assert.NotContains(t, buf.String(), "retrying request")
}

func TestNilContext(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "https://example.com")
	//lint:ignore SA1012 the test passes a nil context on purpose
	_, err := c.Packages.Get(nil, KindGame, "x") //nolint:staticcheck
	assert.ErrorContains(t, err, "nil context")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRetriesRecover(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504, 429} {
		twin, id := flaky(t, 2, status, nil)
		s, err := newTestClient(t, twin.URL).Servers.Get(context.Background(), id)
		require.NoError(t, err, "status %d", status)
		assert.Equal(t, id, s.ID)
		assert.Len(t, twin.Requests(), 3, "status %d: two failures, then success", status)
	}
}

func TestNotRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 410, 501} {
		twin, id := flaky(t, 1, status, nil)
		_, err := newTestClient(t, twin.URL).Servers.Get(context.Background(), id)
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr, "status %d", status)
		assert.Equal(t, status, apiErr.StatusCode)
		assert.Len(t, twin.Requests(), 1, "status %d is not retried", status)
		assert.Equal(t, status == 404, errors.Is(err, ErrNotFound))
	}
}

func TestLastErrorCarriesStatusAndBody(t *testing.T) {
	t.Parallel()
	twin, id := newTwin(t, faults(gamedatatest.Fault503, 0))
	_, err := newTestClient(t, twin.URL, WithRetryMax(2)).Servers.Get(context.Background(), id)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.StatusCode)
	assert.Equal(t, `{"error":"injected fault: Service Unavailable"}`+"\n", string(apiErr.Body), "the body survives the last retry")
	assert.Equal(t, http.MethodGet, apiErr.Method)
	assert.Equal(t, twin.URL+"/api/servers/"+id, apiErr.URL)
	assert.Len(t, twin.Requests(), 3, "one try and two retries")
	assert.Contains(t, err.Error(), "503 Service Unavailable")
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		header     string
		backoffMax time.Duration
		wantTries  int
		wantErr    bool
		wantAfter  time.Duration
	}{
		{"seconds within the maximum are honoured", 429, "1", 2 * time.Second, 2, false, 0},
		{"seconds beyond the maximum fail at once", 429, "120", 2 * time.Second, 1, true, 120 * time.Second},
		{"a 503 beyond the maximum fails at once", 503, "3600", time.Minute, 1, true, time.Hour},
		{"an HTTP date beyond the maximum fails at once", 429, "in an hour", time.Minute, 1, true, time.Hour},
		{"absent means backoff", 429, "", time.Second, 2, false, 0},
		{"garbage means backoff", 429, "soon", time.Second, 2, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			header := http.Header{}
			// The client reads an HTTP date on a fake clock, which stands
			// still: an hour ahead is an hour, however slow the machine.
			clk := newFakeClock()
			if tt.header == "in an hour" {
				tt.header = clk.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
			}
			if tt.header != "" {
				header.Set("Retry-After", tt.header)
			}
			twin, id := flaky(t, 1, tt.status, header)
			c := newTestClient(t, twin.URL, WithBackoff(time.Millisecond, tt.backoffMax), withClock(clk))
			_, err := c.Servers.Get(context.Background(), id)
			assert.Len(t, twin.Requests(), tt.wantTries)
			if !tt.wantErr {
				assert.NoError(t, err)
				return
			}
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.wantAfter, apiErr.RetryAfter)
			assert.Equal(t, tt.status == 429, errors.Is(err, ErrRateLimited))
		})
	}
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	t.Parallel()
	twin, id := newTwin(t, faults(gamedatatest.FaultReset, 2))
	_, err := newTestClient(t, twin.URL).Servers.Get(context.Background(), id)
	require.NoError(t, err)
	assert.Len(t, twin.Requests(), 3)
}

func TestEveryAttemptWaitsOnTheLimiter(t *testing.T) {
	t.Parallel()
	twin, id := newTwin(t, faults(gamedatatest.Fault502, 1))
	// One token, and the next one an hour away, past the deadline: the
	// retry can only be sent if it skips the limiter, which refuses it at
	// once instead of waiting.
	c := newTestClient(t, twin.URL, WithRateLimit(rate.Every(time.Hour), 1))
	ctx, cancel := context.WithTimeout(context.Background(), deadlockGuard)
	defer cancel()
	_, err := c.Servers.Get(ctx, id)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Len(t, twin.Requests(), 1, "the retry waited on the limiter")
}

func TestCancellationEndsWaitsAtOnce(t *testing.T) {
	t.Parallel()
	twin, id := newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.Fault503}, RetryAfter: time.Hour}))
	waiting := make(chan struct{}, 1)
	onRetry := func(context.Context, RetryEvent) { waiting <- struct{}{} }
	// On the wall's clock: the wait is an hour, and only the cancellation
	// may end it.
	c := newTestClient(t, twin.URL, WithBackoff(time.Second, 2*time.Hour), WithHooks(Hooks{OnRetry: onRetry}), withClock(clock.Real{}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Servers.Get(ctx, id)
		done <- err
	}()
	await(t, waiting, "the client to wait the hour Retry-After asks for")
	cancel()
	err := await(t, done, "the call kept waiting for Retry-After after its context was cancelled")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Len(t, twin.Requests(), 1, "no retry")
}

// A body cut before its framing says it ends (the twin's cuts: short of
// its Content-Length, a chunked body without its last chunk, a gzip body
// without its trailer) is a transport fault: it is retried, and after the
// last try it is io.ErrUnexpectedEOF, never a *DecodeError.
func TestCutBodiesAreRetried(t *testing.T) {
	t.Parallel()
	for _, cut := range []gamedatatest.Fault{gamedatatest.FaultTruncate, gamedatatest.FaultChunkedCut, gamedatatest.FaultGzipCut} {
		t.Run(cut.String(), func(t *testing.T) {
			t.Parallel()
			once, id := newTwin(t, faults(cut, 1))
			s, err := newTestClient(t, once.URL).Servers.Get(context.Background(), id)
			require.NoError(t, err)
			assert.Equal(t, id, s.ID)
			assert.Len(t, once.Requests(), 2)

			always, _ := newTwin(t, faults(cut, 0))
			_, err = newTestClient(t, always.URL, WithRetryMax(2)).Servers.Get(context.Background(), id)
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
			var de *DecodeError
			assert.False(t, errors.As(err, &de), "a cut body is not bad data: %v", err)
			assert.ErrorContains(t, err, "after 3 attempts")
		})
	}
}

// Errors after retries say how many attempts were made, name the request
// once, and wrap the last cause.
func TestErrorsAfterRetries(t *testing.T) {
	t.Parallel()
	unavailable, _ := newTwin(t, faults(gamedatatest.Fault503, 0))
	reset, _ := newTwin(t, faults(gamedatatest.FaultReset, 0))
	notFound, _ := newTwin(t) // it has no server s1
	for _, tt := range []struct {
		name, url string
		want      error
		attempts  string
	}{
		{"503", unavailable.URL, &APIError{}, "after 5 attempts: 503 Service Unavailable"},
		{"reset", reset.URL, syscall.ECONNRESET, "after 5 attempts"},
		{"404", notFound.URL, ErrNotFound, ""},
	} {
		_, err := newTestClient(t, tt.url).Servers.Get(context.Background(), "s1")
		require.Error(t, err, tt.name)
		if target, ok := tt.want.(*APIError); ok {
			assert.ErrorAs(t, err, &target, tt.name)
		} else {
			assert.ErrorIs(t, err, tt.want, tt.name)
		}
		msg := err.Error()
		assert.Equal(t, 1, strings.Count(msg, "gamedata:"), msg)
		assert.Equal(t, 1, strings.Count(msg, "GET "+tt.url+"/api/servers/s1"), msg)
		if tt.attempts != "" {
			assert.Contains(t, msg, tt.attempts)
		} else {
			assert.NotContains(t, msg, "attempts")
		}
	}
}

// A connection that goes silent, before its headers or in the middle of
// its body, is abandoned after the stall timeout and retried, with the
// default rate limit and backoff.
func TestStalledAttemptsAreRetried(t *testing.T) {
	t.Parallel()
	for _, stall := range []gamedatatest.Fault{gamedatatest.FaultStallHeaders, gamedatatest.FaultStallBody} {
		ft := newFakeClock()
		twin, id := newTwin(t)
		fi := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{stall}, Attempts: 1})
		h, stalled := stallSignals(t, fi, stall)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		t.Cleanup(fi.Close)
		c, err := NewClient(srv.URL, withClock(ft))
		require.NoError(t, err)
		go func() {
			<-stalled
			// However the client's reads fall around it, the attempt
			// has now been silent for the whole default stall timeout.
			ft.Advance(30 * time.Second)
		}()
		s, err := c.Servers.Get(context.Background(), id)
		require.NoError(t, err, stall)
		assert.Equal(t, id, s.ID)
		assert.Len(t, fi.Requests(), 2, stall)
	}
}

func TestStallAfterTheLastTry(t *testing.T) {
	t.Parallel()
	ft := newFakeClock()
	twin, id := newTwin(t)
	fi := gamedatatest.InjectFaults(twin.Handler(), gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders}})
	h, stalled := stallSignals(t, fi, gamedatatest.FaultStallHeaders)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(fi.Close)
	c := newTestClient(t, srv.URL, withClock(ft), WithRetryMax(0), WithStallTimeout(time.Minute))
	go func() {
		<-stalled
		ft.Advance(time.Minute)
	}()
	_, err := c.Servers.Get(context.Background(), id)
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
	assert.ErrorContains(t, err, "connection stalled: nothing received for 1m0s")
}

func TestWithStallTimeoutRefusesNegative(t *testing.T) {
	t.Parallel()
	_, err := NewClient("https://example.com", WithStallTimeout(-time.Second))
	assert.ErrorContains(t, err, "WithStallTimeout")
}

func TestResponseSizeLimit(t *testing.T) {
	t.Parallel()
	twin, id := newTwin(t)
	body := twin.Catalog().Server(id)
	tests := []struct {
		name    string
		handler http.Handler
	}{
		{"with Content-Length", twin.Handler()},
		// By hand: the twin always declares a Content-Length.
		{"chunked", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i < len(body); i += 100 {
				w.Write(body[i:min(i+100, len(body))])
				w.(http.Flusher).Flush()
			}
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, log := newServer(t, tt.handler.ServeHTTP)
			_, err := newTestClient(t, srv.URL, WithMaxResponseBytes(int64(len(body)-1))).Servers.Get(context.Background(), id)
			assert.ErrorIs(t, err, ErrResponseTooLarge)
			assert.Equal(t, 1, log.len(), "a body too large is not retried")

			s, err := newTestClient(t, srv.URL, WithMaxResponseBytes(int64(len(body)))).Servers.Get(context.Background(), id)
			require.NoError(t, err, "a body exactly at the limit is fine")
			assert.Equal(t, id, s.ID)
		})
	}
}

// The bodies that are not a record; TestFaultMatrix sends the empty, the
// HTML, the malformed and the deeply nested ones to every endpoint.
func TestBadBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, want string
	}{
		{"null", `null`, "not JSON"},
		{"array", `[]`, "server record"},
		{"array bomb", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "want an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			twin, id := newTwin(t, gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Answer: gamedatatest.Respond(gamedatatest.Response{Body: []byte(tt.body)})}))
			_, err := newTestClient(t, twin.URL).Servers.Get(context.Background(), id)
			var de *DecodeError
			require.ErrorAs(t, err, &de)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, twin.URL+"/api/servers/"+id, de.URL)
		})
	}
}

// A Client that NewClient did not make refuses every call, naming
// NewClient, instead of panicking; Stats reports nothing done. Every
// exported method is called, found by reflection, so a new one cannot be
// left out.
func TestZeroClientRefusesEveryCall(t *testing.T) {
	t.Parallel()
	var c Client
	reports := callEveryMethod(t, &c, context.Background())
	require.Contains(t, reports, "Packages.Watch", "the services' methods are called too")
	for name, err := range reports {
		if name == "Stats" {
			assert.NoError(t, err)
			continue
		}
		assert.ErrorIs(t, err, errZeroClient, name)
		assert.ErrorContains(t, err, "create it with NewClient", name)
	}
	assert.Equal(t, ClientStats{}, c.Stats())
	var none *Client
	assert.Equal(t, ClientStats{}, none.Stats())
}

// Every call refuses a nil context, without panicking and before sending
// anything.
func TestNilContextIsRefusedByEveryCall(t *testing.T) {
	t.Parallel()
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	for name, err := range callEveryMethod(t, c, nil) {
		if name != "Stats" {
			assert.ErrorContains(t, err, "nil context", name)
		}
	}
	assert.Empty(t, twin.Requests(), "nothing was sent")
}

// callEveryMethod calls every exported method of c and of its services,
// found by reflection, with ctx and plain arguments, and returns what
// each reported, by name ("Search", "Packages.Get"): its error result, or
// the first error its iterator yielded (nil for none, and for Stats).
func callEveryMethod(t *testing.T, c *Client, ctx context.Context) map[string]error {
	t.Helper()
	reports := map[string]error{}
	call := func(name string, m reflect.Value) {
		args := make([]reflect.Value, m.Type().NumIn())
		for i := range args {
			args[i] = argumentFor(t, name, m.Type().In(i), ctx)
		}
		if m.Type().IsVariadic() {
			reports[name] = reported(t, name, m.CallSlice(args))
			return
		}
		reports[name] = reported(t, name, m.Call(args))
	}
	cv := reflect.ValueOf(c)
	for i := range cv.NumMethod() {
		call(cv.Type().Method(i).Name, cv.Method(i))
	}
	for i := range cv.Elem().NumField() {
		f := cv.Elem().Type().Field(i)
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer {
			continue
		}
		svc := cv.Elem().Field(i)
		for j := range svc.NumMethod() {
			call(f.Name+"."+svc.Type().Method(j).Name, svc.Method(j))
		}
	}
	return reports
}

// argumentFor is a plain argument of type typ: ctx for the context, nil
// options, one identifier, a concurrency of 1, an interval of a minute.
func argumentFor(t *testing.T, method string, typ reflect.Type, ctx context.Context) reflect.Value {
	t.Helper()
	switch typ {
	case reflect.TypeFor[context.Context]():
		return reflect.ValueOf(&ctx).Elem()
	case reflect.TypeFor[string]():
		return reflect.ValueOf("x")
	case reflect.TypeFor[int]():
		return reflect.ValueOf(1)
	case reflect.TypeFor[time.Duration]():
		return reflect.ValueOf(time.Minute)
	case reflect.TypeFor[[]string]():
		return reflect.ValueOf([]string{"x"})
	case reflect.TypeFor[[]PackageRef]():
		return reflect.ValueOf([]PackageRef{{KindGame, "x"}})
	case reflect.TypeFor[[]CallOption]():
		return reflect.Zero(typ)
	}
	if typ.Kind() == reflect.Pointer {
		return reflect.Zero(typ)
	}
	t.Fatalf("%s takes a %s: teach argumentFor a value of it", method, typ)
	return reflect.Value{}
}

// reported is what a call's results report: the error result, or the
// first error an iterator result yields, or nil.
func reported(t *testing.T, method string, results []reflect.Value) error {
	t.Helper()
	last := results[len(results)-1]
	switch {
	case last.Type() == reflect.TypeFor[error]():
		err, _ := last.Interface().(error)
		return err
	case last.Kind() == reflect.Func: // an iter.Seq2 whose second value is an error
		var first error
		yield := reflect.MakeFunc(last.Type().In(0), func(args []reflect.Value) []reflect.Value {
			first, _ = args[1].Interface().(error)
			return []reflect.Value{reflect.ValueOf(false)}
		})
		last.Call([]reflect.Value{yield})
		return first
	case last.Type() == reflect.TypeFor[ClientStats]():
		return nil
	}
	t.Fatalf("%s returns a %s: teach reported what it says", method, last.Type())
	return nil
}

// Every refusal made before sending matches ErrInvalidArgument, and its
// message still names the argument; no request is sent.
func TestRefusalsBeforeSendingAreInvalidArguments(t *testing.T) {
	t.Parallel()
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		err  func() error
		says string
	}{
		{"empty kind", func() error { _, err := c.Packages.Get(ctx, "", "x"); return err }, "empty package kind"},
		{"dot ident", func() error { _, err := c.Packages.Get(ctx, KindGame, ".."); return err }, `package ident ".." is a dot segment`},
		{"empty server id", func() error { _, err := c.Servers.Get(ctx, ""); return err }, "empty server id"},
		{"dot organization", func() error { _, err := c.Organizations.Get(ctx, "."); return err }, "organization ident"},
		{"page size", func() error {
			_, err := c.Dashboard.List(ctx, &DashboardOptions{ListOptions: ListOptions{PageSize: 101}})
			return err
		}, "page size 101"},
		{"page", func() error { _, err := c.Organizations.List(ctx, &ListOptions{Page: -1}); return err }, "page -1"},
		{"params repeat a field", func() error {
			_, err := c.Organizations.List(ctx, &ListOptions{Params: url.Values{"page": {"3"}}})
			return err
		}, `Params sets "page"`},
		{"concurrency", func() error {
			for _, err := range c.Servers.GetMany(ctx, []string{"s1"}, 0) {
				return err
			}
			return nil
		}, "concurrency 0"},
		//lint:ignore SA1012 the test passes a nil context on purpose
		{"nil context", func() error { _, err := c.Servers.Get(nil, "s1"); return err }, "nil context"}, //nolint:staticcheck
		{"option", func() error { _, err := NewClient(twin.URL, WithRetryMax(-1)); return err }, "WithRetryMax: -1 retries"},
		{"stall option", func() error { _, err := NewClient(twin.URL, WithStallTimeout(-1)); return err }, "WithStallTimeout"},
		{"base URL", func() error { _, err := NewClient("localhost:8080"); return err }, "base URL"},
	} {
		err := tt.err()
		assert.ErrorIs(t, err, ErrInvalidArgument, tt.name)
		assert.ErrorContains(t, err, tt.says, tt.name)
		assert.Equal(t, 1, strings.Count(fmt.Sprint(err), "gamedata:"), "%s: %v", tt.name, err)
	}
	assert.Empty(t, twin.Requests(), "nothing was sent")
}

func TestPathSegmentsStayWhole(t *testing.T) {
	t.Parallel()
	// The twin under /base: a request that dropped the prefix would not
	// reach it, and none of these identifiers is in its catalogue.
	twin, _ := newTwin(t)
	srv, log := newServer(t, http.StripPrefix("/base", twin.Handler()).ServeHTTP)
	c := newTestClient(t, srv.URL+"/base")
	ctx := context.Background()
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"server id with a port", func() error { _, err := c.Servers.Get(ctx, "1.2.3.4:27015"); return err }, "/base/api/servers/1.2.3.4:27015"},
		{"server id with a slash", func() error { _, err := c.Servers.Get(ctx, "a/b"); return err }, "/base/api/servers/a%2Fb"},
		{"dot-dot inside an ident", func() error { _, err := c.Packages.Get(ctx, "game", "../x"); return err }, "/base/api/packages/game/..%2Fx"},
		{"query and fragment characters", func() error { _, err := c.Organizations.Get(ctx, "a?b#c"); return err }, "/base/api/organizations/a%3Fb%23c"},
		{"percent and space", func() error { _, err := c.Analytics.Organization(ctx, "100% fun"); return err }, "/base/api/analytics/organizations/100%25%20fun"},
		{"kind with a slash", func() error { _, err := c.Analytics.Package(ctx, "g/ame", "x"); return err }, "/base/api/analytics/packages/g%2Fame/x"},
	}
	for i, tt := range tests {
		require.ErrorIs(t, tt.call(), ErrNotFound, tt.name)
		require.Len(t, twin.Requests(), i+1, "%s: the twin was asked", tt.name)
		reqs := log.all()
		require.Len(t, reqs, i+1)
		assert.Equal(t, tt.want, reqs[i].URL.EscapedPath(), tt.name)
	}
}

func TestEmptyAndDotIdentifiersAreRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	for _, bad := range []string{"", ".", ".."} {
		_, err := c.Packages.Get(ctx, KindGame, bad)
		assert.ErrorIs(t, err, ErrInvalidArgument, "package ident %q", bad)
		_, err = c.Packages.Get(ctx, bad, "x")
		assert.Error(t, err, "package kind %q", bad)
		_, err = c.Servers.Get(ctx, bad)
		assert.Error(t, err, "server id %q", bad)
		_, err = c.Organizations.Get(ctx, bad)
		assert.Error(t, err, "organization %q", bad)
		_, err = c.Analytics.Package(ctx, KindGame, bad)
		assert.Error(t, err, "analytics package %q", bad)
		_, err = c.Analytics.Organization(ctx, bad)
		assert.Error(t, err, "analytics organization %q", bad)
	}
	assert.Empty(t, twin.Requests(), "nothing was sent")
}

// SERVICE.md does not make q required: a nil or empty query is sent
// without q, and the service decides what it returns.
func TestSearchWithoutAQuerySendsNoQ(t *testing.T) {
	t.Parallel()
	twin, _ := newTwin(t)
	c := newTestClient(t, twin.URL)
	ctx := context.Background()
	_, err := c.Search(ctx, nil)
	require.NoError(t, err)
	_, err = c.Search(ctx, &SearchOptions{})
	require.NoError(t, err)
	_, err = c.Analytics.Search(ctx, nil)
	require.NoError(t, err)
	_, err = c.Search(ctx, &SearchOptions{Query: "space"})
	require.NoError(t, err)
	reqs := twin.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs[:3] {
		assert.False(t, r.Query.Has("q"), "%s?%s", r.Path, r.Query.Encode())
	}
	assert.Equal(t, "space", reqs[3].Query.Get("q"))
}

// The limiter allows at most burst + r·t requests in any window of t: a
// greedy sender on a fake clock never sends more. The default, 5/s with a
// burst of 1, never exceeds 6 in a second.
func TestRateLimitAllowsBurstPlusRateInAnyWindow(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		opts  []Option
		r     float64
		burst int
	}{
		{nil, 5, 1},
		{[]Option{WithRateLimit(20, 1)}, 20, 1},
		{[]Option{WithRateLimit(20, 20)}, 20, 20},
	} {
		// A greedy sender: each send as soon as the limiter allows it,
		// on a fake clock whose sleeps move the time on.
		clk := newFakeClock()
		c, err := NewClient("https://example.com", append(tt.opts, withClock(clk))...)
		require.NoError(t, err)
		start := clk.Now()
		var sent []time.Time
		for clk.Now().Before(start.Add(5 * time.Second)) {
			_, err := c.adaptive.Wait(context.Background(), clk)
			require.NoError(t, err)
			sent = append(sent, clk.Now())
		}
		assert.Len(t, sent, tt.burst+int(5*tt.r), "rate %v burst %d: burst + r·t in 5 s", tt.r, tt.burst)
		most := 0
		for i := range sent {
			j := i
			for j < len(sent) && sent[j].Sub(sent[i]) < time.Second {
				j++
			}
			most = max(most, j-i)
		}
		assert.Equal(t, tt.burst+int(tt.r)-1, most, "rate %v burst %d: the most in any 1 s window", tt.r, tt.burst)
	}
}

func FuzzPathSegment(f *testing.F) {
	for _, id := range []string{
		"203.0.113.7:27015", "a/b", "../x", "a?b#c", "100% fun", "%2e%2e", "...",
		"", ".", "..", "a;b,c=d&e+f@g$h", "宇宙\xff\x00\x7f", "//", "?", "#",
	} {
		f.Add(id, "game")
	}
	c, err := NewClient("https://example.com/base")
	require.NoError(f, err)

	f.Fuzz(func(t *testing.T, id, kind string) {
		err := checkSegments([]string{"server id"}, id)
		switch id {
		case "", ".", "..":
			if err == nil {
				t.Fatalf("checkSegments accepts %q", id)
			}
			return
		}
		if err != nil {
			t.Fatalf("checkSegments refuses %q: %v", id, err)
		}
		fuzzOneSegment(t, c, id)
		// Two segments, as in a package path, stay two segments.
		if checkSegments([]string{"kind", "ident"}, kind, id) == nil {
			fuzzTwoSegments(t, c, kind, id)
		}
	})
}

// fuzzOneSegment checks that id, a server id, is one escaped segment of
// its endpoint's URL, which parses back to the same path, with no query
// or fragment.
func fuzzOneSegment(t *testing.T, c *Client, id string) {
	u, err := c.endpoint(manifest.Server, nil, []string{id})
	if err != nil {
		t.Fatal(err)
	}
	escaped := u.EscapedPath()
	segment, ok := strings.CutPrefix(escaped, "/base/api/servers/")
	if !ok {
		t.Fatalf("id %q: escaped path %q is not under /base/api/servers/", id, escaped)
	}
	if strings.ContainsAny(segment, "/?#") {
		t.Fatalf("id %q: escaped segment %q holds /, ? or #", id, segment)
	}
	if back, err := url.PathUnescape(segment); err != nil || back != id {
		t.Fatalf("id %q: escaped segment %q unescapes to %q, %v", id, segment, back, err)
	}
	parsed, err := url.Parse(u.String())
	if err != nil {
		t.Fatalf("id %q: url.Parse(%q): %v", id, u.String(), err)
	}
	if parsed.Path != u.Path || parsed.EscapedPath() != escaped {
		t.Fatalf("id %q: %q parses to path %q (escaped %q), want %q (escaped %q)", id, u.String(), parsed.Path, parsed.EscapedPath(), u.Path, escaped)
	}
	if parsed.RawQuery != "" || parsed.ForceQuery || parsed.Fragment != "" || parsed.RawFragment != "" {
		t.Fatalf("id %q: %q parses with query %q or fragment %q", id, u.String(), parsed.RawQuery, parsed.Fragment)
	}
}

// fuzzTwoSegments checks that a package's kind and ident are two escaped
// segments of its endpoint's URL.
func fuzzTwoSegments(t *testing.T, c *Client, kind, ident string) {
	u, err := c.endpoint(manifest.Package, nil, []string{kind, ident})
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(u.EscapedPath(), "/base/api/packages/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 2 {
		t.Fatalf("kind %q, ident %q: escaped path %q is not two segments under /base/api/packages/", kind, ident, u.EscapedPath())
	}
	for i, want := range []string{kind, ident} {
		if got, err := url.PathUnescape(parts[i]); err != nil || got != want {
			t.Fatalf("kind %q, ident %q: segment %q unescapes to %q, %v", kind, ident, parts[i], got, err)
		}
	}
}
