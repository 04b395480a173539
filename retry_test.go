package gamedata

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// flaky answers the first failures requests with status and header, then
// serves a server record.
func flaky(failures int, status int, header http.Header) (http.HandlerFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if int(n.Add(1)) <= failures {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.WriteHeader(status)
			w.Write([]byte(`{"error":"try later"}`))
			return
		}
		w.Write([]byte(`{"id":"s1"}`))
	}, &n
}

func TestRetriesRecover(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504, 429} {
		h, n := flaky(2, status, nil)
		srv, _ := newServer(t, h)
		s, err := newTestClient(t, srv.URL).Servers.Get(context.Background(), "s1")
		require.NoError(t, err, "status %d", status)
		assert.Equal(t, "s1", s.ID)
		assert.Equal(t, int32(3), n.Load(), "status %d: two failures, then success", status)
	}
}

func TestNotRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 410, 501} {
		h, n := flaky(1, status, nil)
		srv, _ := newServer(t, h)
		_, err := newTestClient(t, srv.URL).Servers.Get(context.Background(), "s1")
		var apiErr *APIError
		require.ErrorAs(t, err, &apiErr, "status %d", status)
		assert.Equal(t, status, apiErr.StatusCode)
		assert.Equal(t, int32(1), n.Load(), "status %d is not retried", status)
		assert.Equal(t, status == 404, errors.Is(err, ErrNotFound))
	}
}

func TestLastErrorCarriesStatusAndBody(t *testing.T) {
	t.Parallel()
	h, n := flaky(100, http.StatusServiceUnavailable, nil)
	srv, _ := newServer(t, h)
	_, err := newTestClient(t, srv.URL, WithRetryMax(2)).Servers.Get(context.Background(), "s1")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.StatusCode)
	assert.Equal(t, `{"error":"try later"}`, string(apiErr.Body), "the body survives the last retry")
	assert.Equal(t, http.MethodGet, apiErr.Method)
	assert.Equal(t, srv.URL+"/api/servers/s1", apiErr.URL)
	assert.Equal(t, int32(3), n.Load(), "one try and two retries")
	assert.Contains(t, err.Error(), "503 Service Unavailable")
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		header     string
		backoffMax time.Duration
		wantTries  int32
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
			if tt.header == "in an hour" {
				// Made when the subtest runs, not when the table is built:
				// parallel subtests may start long after.
				tt.header = time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
			}
			if tt.header != "" {
				header.Set("Retry-After", tt.header)
			}
			h, n := flaky(1, tt.status, header)
			srv, _ := newServer(t, h)
			c := newTestClient(t, srv.URL, WithBackoff(time.Millisecond, tt.backoffMax))
			_, err := c.Servers.Get(context.Background(), "s1")
			assert.Equal(t, tt.wantTries, n.Load())
			if !tt.wantErr {
				assert.NoError(t, err)
				return
			}
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.InDelta(t, tt.wantAfter.Seconds(), apiErr.RetryAfter.Seconds(), 2)
			assert.Equal(t, tt.status == 429, errors.Is(err, ErrRateLimited))
		})
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	lo, hi := 100*time.Millisecond, time.Second
	for attempt, want := range []time.Duration{100, 200, 400, 800, 1000, 1000, 1000} {
		want *= time.Millisecond
		for range 20 {
			d := backoff(lo, hi, attempt, nil)
			assert.GreaterOrEqual(t, d, want/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, want, "attempt %d", attempt)
		}
	}
	assert.Equal(t, time.Duration(0), backoff(0, 0, 3, nil))
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}}
	assert.Equal(t, 7*time.Second, backoff(lo, 30*time.Second, 0, resp), "Retry-After wins")
	assert.Equal(t, time.Duration(0), retryAfter(&http.Response{StatusCode: 500, Header: http.Header{"Retry-After": {"7"}}}), "only 429 and 503 carry it")
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	assert.Equal(t, time.Duration(0), retryAfter(&http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {past}}}))
	assert.Equal(t, time.Duration(0), retryAfter(&http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"-3"}}}))
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= 2 {
			conn, _, err := w.(http.Hijacker).Hijack()
			require.NoError(t, err)
			conn.Close()
			return
		}
		w.Write([]byte(`{"id":"s1"}`))
	})
	_, err := newTestClient(t, srv.URL).Servers.Get(context.Background(), "s1")
	require.NoError(t, err)
	assert.Equal(t, int32(3), n.Load())
}

func TestBrokenBodiesAreRetried(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Content-Length", "100")
			w.Write([]byte(`{"id":`)) // the handler returns: the body ends short
			return
		}
		w.Write([]byte(`{"id":"s1"}`))
	})
	s, err := newTestClient(t, srv.URL).Servers.Get(context.Background(), "s1")
	require.NoError(t, err)
	assert.Equal(t, "s1", s.ID)
	assert.Equal(t, int32(2), n.Load())
}

func TestEveryAttemptWaitsOnTheLimiter(t *testing.T) {
	t.Parallel()
	h, n := flaky(1, http.StatusBadGateway, nil)
	srv, _ := newServer(t, h)
	// One token, and the next one an hour away: the retry can only be sent
	// if it skips the limiter.
	c := newTestClient(t, srv.URL, WithRateLimit(rate.Every(time.Hour), 1))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Servers.Get(ctx, "s1")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Equal(t, int32(1), n.Load(), "the retry waited on the limiter")
}

func TestCancellationEndsWaitsAtOnce(t *testing.T) {
	t.Parallel()
	h, _ := flaky(100, http.StatusServiceUnavailable, http.Header{"Retry-After": {"30"}})
	srv, _ := newServer(t, h)
	c := newTestClient(t, srv.URL, WithBackoff(time.Second, time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Servers.Get(ctx, "s1")
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(10 * time.Second):
		t.Fatal("the call kept waiting for Retry-After after its context was cancelled")
	}
}

func TestRetryAfterHeaderIsBoundedWhenHuge(t *testing.T) {
	t.Parallel()
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {strconv.FormatInt(1<<62, 10)}}}
	assert.Positive(t, retryAfter(resp), "a huge value must not overflow into a negative wait")
}
