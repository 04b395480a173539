package gamedatatest

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcome fetches path once on a fresh connection and names what happened:
// a status code, "reset" or "truncated".
func outcome(t *testing.T, s *Server, path string) string {
	t.Helper()
	tr := s.Client().Transport.(*http.Transport).Clone()
	tr.DisableKeepAlives = true // no transparent retry on a reused connection
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(s.URL + path)
	if err != nil {
		return "reset"
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err != nil {
		require.ErrorIs(t, err, io.ErrUnexpectedEOF)
		return "truncated"
	}
	return strconv.Itoa(resp.StatusCode)
}

func outcomes(t *testing.T, s *Server, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		out[i] = outcome(t, s, "/api/packages/game/1337")
	}
	return out
}

func TestFaultsReproducible(t *testing.T) {
	t.Parallel()
	f := Faults{Rate: 0.5, Seed: 7}
	a := NewServer(WithFaults(f))
	defer a.Close()
	b := NewServer(WithFaults(f), WithSeed(99)) // another catalogue, same fault seed
	defer b.Close()
	c := NewServer(WithFaults(Faults{Rate: 0.5, Seed: 8}))
	defer c.Close()

	first := outcomes(t, a, 60)
	assert.Equal(t, first, outcomes(t, b, 60), "same fault seed, same faults")
	assert.NotEqual(t, first, outcomes(t, c, 60), "another fault seed, other faults")
	assert.Contains(t, first, "200")
	for _, want := range []string{"500", "502", "503", "429", "reset", "truncated"} {
		assert.Contains(t, first, want)
	}
	a.SetFaults(f)
	assert.Equal(t, first, outcomes(t, a, 60), "SetFaults restarts the sequence")

	var logged []string
	for _, r := range a.Requests()[60:] {
		switch r.Fault {
		case 0:
			logged = append(logged, strconv.Itoa(r.Status))
		case FaultReset:
			assert.Zero(t, r.Status)
			logged = append(logged, "reset")
		case FaultTruncate:
			logged = append(logged, "truncated")
		default:
			assert.Equal(t, r.Fault.String(), strconv.Itoa(r.Status))
			logged = append(logged, strconv.Itoa(r.Status))
		}
	}
	assert.Equal(t, first, logged, "the request log records each fault")
}

func TestFaultKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fault      Fault
		retryAfter time.Duration
		want       string
		header     string
	}{
		{Fault500, time.Second, "500", ""},
		{Fault502, time.Second, "502", ""},
		{Fault503, 1500 * time.Millisecond, "503", "2"},
		{Fault503, 0, "503", ""},
		{Fault429, 3 * time.Second, "429", "3"},
		{Fault429, 0, "429", ""},
		{FaultReset, 0, "reset", ""},
		{FaultTruncate, 0, "truncated", ""},
		{FaultChunkedCut, 0, "truncated", ""},
		{FaultGzipCut, 0, "truncated", ""},
	}
	for _, tt := range tests {
		t.Run(tt.fault.String()+"/"+tt.retryAfter.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{tt.fault}, RetryAfter: tt.retryAfter}))
			defer s.Close()
			assert.Equal(t, tt.want, outcome(t, s, "/api/dashboard"))
			assert.Equal(t, "200", outcome(t, s, "/openapi.json"), "no faults outside /api/")
			if tt.fault.status() != 0 {
				r := get(t, s, "/api/search?q=x")
				assert.Equal(t, tt.header, r.header.Get("Retry-After"))
				assert.Contains(t, r.object(t), "error")
			}
		})
	}
}

func TestFaultRate(t *testing.T) {
	t.Parallel()
	s := NewServer(WithFaults(Faults{Rate: 0.25, Kinds: []Fault{Fault500}}))
	defer s.Close()
	failed := 0
	for range 200 {
		if get(t, s, "/api/organizations").status == http.StatusInternalServerError {
			failed++
		}
	}
	assert.InDelta(t, 50, failed, 25, "about a quarter fail")
	s.SetFaults(Faults{})
	assert.Equal(t, "200", outcome(t, s, "/api/organizations"), "the zero Faults injects nothing")
}

// TestRateLimit runs the twin's rate limit on a fake clock: a token comes
// back only when the test moves the time on.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	s := NewServer(WithRateLimit(0.5, 2), withClock(clk))
	defer s.Close()
	assert.Equal(t, http.StatusOK, get(t, s, "/api/dashboard").status)
	assert.Equal(t, http.StatusOK, get(t, s, "/openapi.json").status)
	r := get(t, s, "/api/dashboard")
	require.Equal(t, http.StatusTooManyRequests, r.status)
	assert.Equal(t, "2", r.header.Get("Retry-After"), "whole seconds until a token at 0.5/s")
	assert.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
	assert.Equal(t, map[string]any{"error": "rate limit exceeded"}, r.object(t))
	clk.advance(1999 * time.Millisecond)
	assert.Equal(t, "1", get(t, s, "/api/dashboard").header.Get("Retry-After"), "rounded up, at least 1")
	clk.advance(time.Millisecond)
	assert.Equal(t, http.StatusOK, get(t, s, "/api/dashboard").status, "a token after 2 s")

	s.SetRateLimit(1000, 5)
	clk.advance(time.Millisecond)
	assert.Equal(t, http.StatusOK, get(t, s, "/api/dashboard").status, "a raised limit lets requests through")

	s.SetRateLimit(1, 1)
	clk.advance(10 * time.Second)
	statuses := map[int]int{}
	for range 5 {
		statuses[get(t, s, "/api/dashboard").status]++
	}
	assert.Equal(t, map[int]int{http.StatusOK: 1, http.StatusTooManyRequests: 4}, statuses, "ten seconds saved one token: the burst is 1")
	r = get(t, s, "/api/dashboard")
	assert.Equal(t, "1", r.header.Get("Retry-After"))

	s.SetRateLimit(0, 0)
	for range 20 {
		require.Equal(t, http.StatusOK, get(t, s, "/api/dashboard").status, "no limit")
	}
}

// fetchAsync fetches path from s with ctx in a goroutine of its own, and
// sends the status, or 0 on an error.
func fetchAsync(ctx context.Context, s *Server, path string) <-chan int {
	status := make(chan int, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
		resp, err := s.Client().Do(req)
		if err != nil {
			status <- 0
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		status <- resp.StatusCode
	}()
	return status
}

// TestLatency runs the latency on a fake clock: the answer waits for the
// timer, and a request whose client goes away, or a Close, ends the wait
// although the timer never fires.
func TestLatency(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	s := NewServer(WithLatency(60*time.Millisecond), withClock(clk))
	defer s.Close()
	status := fetchAsync(context.Background(), s, "/openapi.json")
	assert.Equal(t, 60*time.Millisecond, <-clk.started, "the answer waits the latency")
	select {
	case <-status:
		t.Fatal("answered before the latency passed")
	default:
	}
	assert.Empty(t, s.Requests(), "a request in its latency wait has not arrived yet")
	clk.fire()
	assert.Equal(t, http.StatusOK, <-status)

	// A request whose context ends does not wait out the latency: it
	// reaches the log with no timer fired.
	ctx, cancel := context.WithCancel(context.Background())
	status = fetchAsync(ctx, s, "/api/dashboard")
	<-clk.started
	cancel()
	assert.Zero(t, <-status)
	waitLog(t, s.h.faults, "the cancelled request ends its wait", func(log []Request) bool { return len(log) == 2 })

	// Close ends the wait of a request still waiting.
	status = fetchAsync(context.Background(), s, "/api/dashboard")
	<-clk.started
	closeWithin(t, s, "Close waits out the latency")
	<-status
}

func TestFaultNames(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for f := Fault(0); f <= FaultCustom; f++ {
		names[f.String()] = true
	}
	assert.Len(t, names, int(FaultCustom)+1, "every fault has its own name")
	assert.Equal(t, "stall-body", FaultStallBody.String())
	assert.Equal(t, "Fault(99)", Fault(99).String())
}

// TestCutFaultsFraming checks that the cut faults break the framing a
// default Go client reads: chunked with no terminator, and gzip decoded
// transparently with no trailer.
func TestCutFaultsFraming(t *testing.T) {
	t.Parallel()
	whole := NewServer()
	defer whole.Close()
	want := get(t, whole, "/api/dashboard").body
	tests := []struct {
		fault Fault
		gzip  bool
	}{
		{FaultChunkedCut, false},
		{FaultGzipCut, true},
	}
	for _, tt := range tests {
		t.Run(tt.fault.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{tt.fault}}))
			defer s.Close()
			resp, err := http.Get(s.URL + "/api/dashboard")
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, int64(-1), resp.ContentLength)
			assert.Equal(t, []string{"chunked"}, resp.TransferEncoding)
			assert.Equal(t, tt.gzip, resp.Uncompressed, "decompressed by the transport")
			got, err := io.ReadAll(resp.Body)
			require.ErrorIs(t, err, io.ErrUnexpectedEOF)
			assert.Less(t, len(got), len(want))
			assert.Equal(t, want[:len(got)], got, "a prefix of the real body")
			r := s.Requests()[0]
			assert.Equal(t, tt.fault, r.Fault)
			assert.Equal(t, http.StatusOK, r.Status)
			assert.Positive(t, r.Bytes)
		})
	}
}

// stallClient starts a GET of path on s that a test can end with cancel,
// and returns the response (or error) once headers arrive.
func stallClient(s *Server, path string) (cancel context.CancelFunc, result chan error, body chan []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	result, body = make(chan error, 1), make(chan []byte, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
		resp, err := http.DefaultClient.Do(req)
		result <- err
		if err != nil {
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body <- b
	}()
	return cancel, result, body
}

func TestStallFaults(t *testing.T) {
	t.Parallel()
	for _, fault := range []Fault{FaultStallHeaders, FaultStallBody} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{fault}}))
			defer s.Close()
			cancel, result, _ := stallClient(s, "/api/dashboard")
			defer cancel()
			require.NoError(t, s.WaitRequests(context.Background(), 1))
			if fault == FaultStallBody {
				require.NoError(t, <-result, "headers arrive before the stall")
				assert.Positive(t, s.Requests()[0].Bytes, "logged before they were sent")
			}
			r := s.Requests()[0]
			assert.Equal(t, fault, r.Fault)
			assert.False(t, r.Done, "still stalled")

			cancel()
			waitLog(t, s.h.faults, "the stall ends when the client goes away", func(log []Request) bool { return log[0].Done })
		})
	}
}

func TestStallEndsAtClose(t *testing.T) {
	t.Parallel()
	for _, fault := range []Fault{FaultStallHeaders, FaultStallBody} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{fault}}))
			cancel, _, _ := stallClient(s, "/api/search?q=a")
			defer cancel()
			require.NoError(t, s.WaitRequests(context.Background(), 1))
			closeWithin(t, s, "Close waits for a stalled request")
			assert.True(t, s.Requests()[0].Done, "Close returns once the entry is final")
		})
	}
}

func TestStallBound(t *testing.T) {
	t.Parallel()
	whole := NewServer()
	defer whole.Close()
	want := get(t, whole, "/api/organizations").body
	for _, fault := range []Fault{FaultStallHeaders, FaultStallBody} {
		t.Run(fault.String(), func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithFaults(Faults{Rate: 1, Kinds: []Fault{fault}, Stall: 5 * time.Millisecond}))
			defer s.Close()
			r := get(t, s, "/api/organizations")
			assert.Equal(t, http.StatusOK, r.status)
			assert.Equal(t, want, r.body, "after the bound the answer goes on whole")
			assert.Equal(t, len(want), s.Requests()[0].Bytes)
		})
	}
}

// Respond answers a failing request with its response verbatim, 200 when
// it names no status, and the real answer once Attempts is spent.
func TestRespond(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name       string
		resp       Response
		wantStatus int
	}{
		{"a status and a header", Response{Status: http.StatusGatewayTimeout, Header: http.Header{"Retry-After": {"soon"}}, Body: []byte(`{"error":"x"}`)}, http.StatusGatewayTimeout},
		{"no status is 200", Response{Body: []byte(`[]`)}, http.StatusOK},
		{"a redirect", Response{Status: http.StatusFound, Header: http.Header{"Location": {"/elsewhere"}}}, http.StatusFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewServer(WithSize(1, 1, 1), WithFaults(Faults{Rate: 1, Attempts: 1, Answer: Respond(tt.resp)}))
			t.Cleanup(s.Close)
			path := "/api/servers/" + s.Catalog().Servers[0].ID
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			get := func() (*http.Response, []byte) {
				resp, err := c.Get(s.URL + path)
				require.NoError(t, err)
				defer resp.Body.Close()
				body, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				return resp, body
			}
			resp, body := get()
			assert.Equal(t, tt.wantStatus, resp.StatusCode)
			for k := range tt.resp.Header {
				assert.Equal(t, tt.resp.Header.Get(k), resp.Header.Get(k), k)
			}
			assert.Equal(t, string(tt.resp.Body), string(body))
			resp, body = get()
			assert.Equal(t, http.StatusOK, resp.StatusCode, "the real answer once Attempts is spent")
			assert.Equal(t, string(s.Catalog().Server(s.Catalog().Servers[0].ID)), string(body))
			assert.Equal(t, FaultCustom, s.Requests()[0].Fault)
		})
	}
}
