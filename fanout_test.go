package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"
)

// detailServer serves /api/packages/game/pN and /api/servers/sN after a
// delay that makes later items finish first, and 404 for names holding
// "missing". It records the highest number of requests in flight at once.
func detailServer(t *testing.T) (string, *atomic.Int32) {
	var inFlight, peak atomic.Int32
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		name := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		if strings.Contains(name, "missing") {
			http.NotFound(w, r)
			return
		}
		k, _ := strconv.Atoi(name[1:])
		time.Sleep(time.Duration(10-k%10) * time.Millisecond)
		if strings.HasPrefix(r.URL.Path, "/api/servers/") {
			fmt.Fprintf(w, `{"id":%q}`, name)
			return
		}
		fmt.Fprintf(w, `{"kind":"game","ident":%q}`, name)
	})
	return srv.URL, &peak
}

func TestGetManyKeepsInputOrder(t *testing.T) {
	t.Parallel()
	base, peak := detailServer(t)
	c := newTestClient(t, base)
	var refs []PackageRef
	var want []string
	for i := range 40 {
		refs = append(refs, PackageRef{Kind: KindGame, Ident: fmt.Sprintf("p%d", i)})
		want = append(want, fmt.Sprintf("p%d", i))
	}
	var got []string
	for p, err := range c.Packages.GetMany(context.Background(), refs, 4) {
		require.NoError(t, err)
		got = append(got, p.Ident)
	}
	assert.Equal(t, want, got)
	assert.LessOrEqual(t, peak.Load(), int32(4), "never more than concurrency requests at once")
	assert.Greater(t, peak.Load(), int32(1), "requests did overlap")
}

func TestGetManyYieldsItemErrorsAndGoesOn(t *testing.T) {
	t.Parallel()
	base, _ := detailServer(t)
	c := newTestClient(t, base)
	ids := []string{"s1", "missing", "", "s4"}
	var got []string
	var itemErrs []*ItemError
	for s, err := range c.Servers.GetMany(context.Background(), ids, 3) {
		if err != nil {
			var ie *ItemError
			require.ErrorAs(t, err, &ie)
			assert.Nil(t, s)
			itemErrs = append(itemErrs, ie)
			continue
		}
		got = append(got, s.ID)
	}
	assert.Equal(t, []string{"s1", "s4"}, got)
	require.Len(t, itemErrs, 2)
	assert.Equal(t, 1, itemErrs[0].Index)
	assert.ErrorIs(t, itemErrs[0], ErrNotFound)
	assert.Equal(t, 2, itemErrs[1].Index)
	assert.ErrorContains(t, itemErrs[1], "empty server id")
}

func TestGetManyBreakCancels(t *testing.T) {
	t.Parallel()
	arrived := make(chan struct{}, 100)
	var cancelled atomic.Int32
	srv, log := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/s0") {
			w.Write([]byte(`{"id":"s0"}`))
			return
		}
		arrived <- struct{}{}
		<-r.Context().Done()
		cancelled.Add(1)
	})
	c := newTestClient(t, srv.URL)
	ids := []string{"s0", "s1", "s2", "s3", "s4", "s5"}
	for s, err := range c.Servers.GetMany(context.Background(), ids, 3) {
		require.NoError(t, err)
		assert.Equal(t, "s0", s.ID)
		<-arrived
		<-arrived // two requests are hanging in flight
		break
	}
	// GetMany returns only after its workers stopped, so every request
	// that reached the server has been cancelled by now or is about to be.
	assert.Eventually(t, func() bool { return int(cancelled.Load()) == log.len()-1 }, 10*time.Second, 10*time.Millisecond)
	assert.LessOrEqual(t, log.len(), 1+3, "nothing new was started after the break")
}

func TestGetManyRefusesBadConcurrency(t *testing.T) {
	t.Parallel()
	c := newTestClient(t, "https://example.com")
	for _, n := range []int{0, -1} {
		var errs []error
		for _, err := range c.Servers.GetMany(context.Background(), []string{"a"}, n) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1)
		assert.ErrorContains(t, errs[0], "concurrency")
	}
	for range c.Packages.GetMany(context.Background(), nil, 2) {
		t.Fatal("nothing to yield for no refs")
	}
}

func TestGetManyWaitsOnTheLimiter(t *testing.T) {
	t.Parallel()
	base, _ := detailServer(t)
	c := newTestClient(t, base, WithRateLimit(rate.Every(time.Hour), 1))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	var ok, failed int
	for _, err := range c.Servers.GetMany(ctx, []string{"s1", "s2", "s3"}, 3) {
		if err != nil {
			failed++
			assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
			continue
		}
		ok++
	}
	assert.Equal(t, 1, ok, "one token, one request")
	assert.Positive(t, failed)
}

func TestDashboardEntryPackageRef(t *testing.T) {
	t.Parallel()
	assert.Equal(t, PackageRef{Kind: "game", Ident: "x"}, DashboardEntry{Kind: "game", Ident: "x"}.PackageRef())
	assert.Equal(t, PackageRef{}, DashboardEntry{Kind: "server", ID: "1.2.3.4:5"}.PackageRef())
}

// More items than the window holds: results pass through reused slots
// and must still come out in input order, each once.
func TestGetManyBeyondTheWindow(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		fmt.Fprintf(w, `{"id":%q}`, name)
	})
	c := newTestClient(t, srv.URL)
	n := 3*fanOutWindow(1) + 7
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	var got []string
	for s, err := range c.Servers.GetMany(context.Background(), ids, 1) {
		require.NoError(t, err)
		got = append(got, s.ID)
	}
	assert.Equal(t, ids, got)
}

// When its context ends, GetMany still yields one pair for every item, in
// order: the records read before, and an *ItemError wrapping ctx.Err() for
// every other item.
func TestGetManyAccountsForEveryItemWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	const items, served, concurrency = 300, 100, 8
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n atomic.Int32
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch i := n.Add(1); {
		case i <= served:
			name := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
			fmt.Fprintf(w, `{"id":%q}`, name)
			return
		case i == served+concurrency:
			// Every worker now waits here, so every request before
			// these has been answered and read.
			cancel()
		}
		<-r.Context().Done()
	})
	c := newTestClient(t, srv.URL, WithStallTimeout(0))
	ids := make([]string, items)
	for i := range ids {
		ids[i] = fmt.Sprintf("s%d", i)
	}
	var records, failures int
	i := 0
	for s, err := range c.Servers.GetMany(ctx, ids, concurrency) {
		if err != nil {
			var ie *ItemError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, i, ie.Index)
			assert.ErrorIs(t, err, context.Canceled)
			failures++
		} else {
			assert.Equal(t, ids[i], s.ID)
			records++
		}
		i++
	}
	assert.Equal(t, items, i, "one pair for every item")
	assert.Equal(t, served, records, "every record read before the end is yielded")
	assert.Equal(t, items-served, failures)
}
