package gamedata

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// detailServer serves /api/packages/game/NAME and /api/servers/NAME, and
// 404 for names holding "missing". The answer for a name in after waits
// until every signal after[name] lists has fired: "sent:N" once the
// answer for N is sent, "arrived:N" once the request for N has arrived.
// So later items finish first with no sleep. It records the highest
// number of requests in flight at once. It is written by hand because the
// twin answers each request as it comes, in no order a test can choose.
func detailServer(t *testing.T, after map[string][]string) (string, *atomic.Int32) {
	var inFlight, peak atomic.Int32
	var sent signals
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		// A request stops counting when its answer starts: from then on
		// the client may send its next one before this handler returns.
		answering := sync.OnceFunc(func() { inFlight.Add(-1) })
		defer answering()
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		name := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		sent.fire("arrived:" + name)
		for _, first := range after[name] {
			select {
			case <-sent.of(first):
			case <-r.Context().Done():
				return
			}
		}
		answering()
		if strings.Contains(name, "missing") {
			http.NotFound(w, r)
			return
		}
		body := fmt.Sprintf(`{"kind":"game","ident":%q}`, name)
		if strings.HasPrefix(r.URL.Path, "/api/servers/") {
			body = fmt.Sprintf(`{"id":%q}`, name)
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		io.WriteString(w, body)
		w.(http.Flusher).Flush()
		sent.fire("sent:" + name)
	})
	return srv.URL, &peak
}

// signals are channels by name, each closed once when its name fires.
type signals struct {
	mu    sync.Mutex
	chans map[string]chan struct{}
	fired map[string]bool
}

func (s *signals) of(name string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chanLocked(name)
}

func (s *signals) chanLocked(name string) chan struct{} {
	if s.chans == nil {
		s.chans, s.fired = map[string]chan struct{}{}, map[string]bool{}
	}
	if s.chans[name] == nil {
		s.chans[name] = make(chan struct{})
	}
	return s.chans[name]
}

func (s *signals) fire(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.chanLocked(name); !s.fired[name] {
		s.fired[name] = true
		close(ch)
	}
}

func TestGetManyKeepsInputOrder(t *testing.T) {
	t.Parallel()
	// In each run of four, an answer waits for the next one, and the last
	// for the other three to arrive: p3, p2, p1 and p0 are answered in
	// that order, and only once all four are in flight at once.
	after := map[string][]string{}
	var refs []PackageRef
	var want []string
	for i := range 40 {
		refs = append(refs, PackageRef{Kind: KindGame, Ident: fmt.Sprintf("p%d", i)})
		want = append(want, fmt.Sprintf("p%d", i))
		if i%4 != 3 {
			after[fmt.Sprintf("p%d", i)] = []string{fmt.Sprintf("sent:p%d", i+1)}
		} else {
			after[fmt.Sprintf("p%d", i)] = []string{fmt.Sprintf("arrived:p%d", i-3), fmt.Sprintf("arrived:p%d", i-2), fmt.Sprintf("arrived:p%d", i-1)}
		}
	}
	base, peak := detailServer(t, after)
	c := newTestClient(t, base)
	var got []string
	for p, err := range c.Packages.GetMany(context.Background(), refs, 4) {
		require.NoError(t, err)
		got = append(got, p.Ident)
	}
	assert.Equal(t, want, got)
	assert.Equal(t, int32(4), peak.Load(), "concurrency requests at once, never more")
}

func TestGetManyYieldsItemErrorsAndGoesOn(t *testing.T) {
	t.Parallel()
	base, _ := detailServer(t, map[string][]string{"s1": {"sent:s4"}}) // s4 is read before s1
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
	arrived, cancelled := make(chan struct{}, 100), make(chan struct{}, 100)
	// By hand: the test must see each request's context end, which the
	// twin's stall ends on but does not report as it happens.
	srv, log := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/s0") {
			w.Write([]byte(`{"id":"s0"}`))
			return
		}
		arrived <- struct{}{}
		<-r.Context().Done()
		cancelled <- struct{}{}
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
	for n := 0; n < log.len()-1; n++ {
		await(t, cancelled, "a request in flight at the break to be cancelled")
	}
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
	base, _ := detailServer(t, nil)
	// The next token is an hour away, past the deadline: the limiter
	// refuses the other requests at once.
	c := newTestClient(t, base, WithRateLimit(rate.Every(time.Hour), 1))
	ctx, cancel := context.WithTimeout(context.Background(), deadlockGuard)
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
	n := 3*fanOutWindow(1) + 7
	twin := gamedatatest.NewServer(gamedatatest.WithSize(0, n, 0))
	t.Cleanup(twin.Close)
	c := newTestClient(t, twin.URL)
	ids := serverIDs(twin.Catalog().Servers)
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
	// The requests after the first served stall until the client goes
	// away.
	var n atomic.Int32
	after := func(*http.Request) bool { return n.Add(1) > served }
	twin := gamedatatest.NewServer(gamedatatest.WithSize(0, items, 0),
		gamedatatest.WithFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders}, Match: after}))
	t.Cleanup(twin.Close)
	go func() {
		// Once every worker waits on a stalled request, every request
		// before these has been answered and read.
		wait, stop := context.WithTimeout(context.Background(), deadlockGuard)
		defer stop()
		assert.NoError(t, twin.WaitRequests(wait, served+concurrency))
		cancel()
	}()
	c := newTestClient(t, twin.URL, WithStallTimeout(0))
	ids := serverIDs(twin.Catalog().Servers)
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

// serverIDs are the ids of entries, in order.
func serverIDs(entries []gamedatatest.Entry) []string {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.ID
	}
	return ids
}
