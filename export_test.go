package gamedata

import (
	"net/http"
	"testing"

	"github.com/gamedata-go/gamedata/gamedatatest"
)

// Exports for the tests of package gamedata_test, which otherwise see the
// public API only.

// DeadlockGuard is deadlockGuard.
const DeadlockGuard = deadlockGuard

// DefaultBackoffMin is the client's default backoff minimum: the most a
// first retry waits without a Retry-After.
var DefaultBackoffMin = defaultConfig().backoffMin

// NewTestClient is newTestClient.
func NewTestClient(t testing.TB, baseURL string, opts ...Option) *Client {
	t.Helper()
	return newTestClient(t, baseURL, opts...)
}

// FakeClock is the fake clock of this package's tests.
type FakeClock = fakeClock

// NewFakeClock returns a fake clock; see newFakeClock.
func NewFakeClock() *FakeClock { return newFakeClock() }

// WithFakeClock runs a client on clk: its stall timers, its reading of
// Retry-After dates, its adaptive rate and its cache.
func WithFakeClock(clk *FakeClock) Option { return withClock(clk) }

// StallSignals is stallSignals.
func StallSignals(t testing.TB, fi *gamedatatest.FaultInjector, kind gamedatatest.Fault) (http.Handler, <-chan struct{}) {
	return stallSignals(t, fi, kind)
}
