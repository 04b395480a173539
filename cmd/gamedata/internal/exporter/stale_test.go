package exporter

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// TestHungPollKeepsSeries polls every second on a fake clock: a good
// poll whose directory the service answers half a second after it
// started, then a service that accepts and never answers. The polls that
// hang start on a tick, a quarter second late, and at once after one
// another, as Run starts them; a scrape half a second into a poll, and
// one after each, has the package series while they are at most three
// intervals old, counted from when they were read, and none after, and
// /healthz answers 200 exactly as long.
func TestHungPollKeepsSeries(t *testing.T) {
	const every = time.Second
	twin := newTwin(t, gamedatatest.WithSize(12, 0, 3))
	var clock *fakeClock
	var slow atomic.Bool
	answerLate := func(req *http.Request, next gamedata.Next) (*http.Response, error) {
		if slow.Load() && req.URL.Path == "/api/dashboard" {
			clock.Advance(every / 2)
		}
		return next.RoundTrip(req)
	}
	// Without a cache every poll asks for whole bodies, which the stall
	// holds.
	c := newClient(t, twin.URL, gamedata.WithCache(nil), gamedata.WithMiddleware(answerLate))
	var e *Exporter
	e, _, clock = newExporter(t, c, Config{Kinds: []string{"game"}, Every: every})
	start := clock.Now()
	slow.Store(true)
	poll(t, e)
	slow.Store(false)
	read := clock.Now()
	if read.Sub(start) != every/2 {
		t.Fatalf("the good poll read its directory %v after it started, want %v", read.Sub(start), every/2)
	}

	twin.SetFaults(gamedatatest.Faults{Rate: 1, Kinds: []gamedatatest.Fault{gamedatatest.FaultStallHeaders}})
	ctx := guard(t)
	check := func(what string) {
		t.Helper()
		age := clock.Now().Sub(read)
		kept := age <= staleIntervals*every
		if got := len(samples(t, e, "gamedata_package_info")) > 0; got != kept {
			t.Errorf("%s, %v after the read: package series %v, want %v", what, age, got, kept)
		}
		want := http.StatusServiceUnavailable
		if kept {
			want = http.StatusOK
		}
		if code, _ := scrape(t, e, "/healthz"); code != want {
			t.Errorf("%s, %v after the read: /healthz %d, want %d", what, age, code, want)
		}
	}
	advanceTo := func(d time.Duration) { clock.Advance(start.Add(d).Sub(clock.Now())) }
	for i, p := range []struct {
		start   time.Duration // after the good poll started
		scrapes []time.Duration
	}{
		{every, []time.Duration{1500 * time.Millisecond}},
		{2250 * time.Millisecond, []time.Duration{2750 * time.Millisecond}}, // a tick late
		{3250 * time.Millisecond, []time.Duration{3500 * time.Millisecond, 3750 * time.Millisecond}},
	} {
		advanceTo(p.start)
		sent := len(twin.Requests())
		done := make(chan error, 1)
		go func() { done <- e.Poll(ctx) }()
		if err := twin.WaitRequests(ctx, sent+1); err != nil {
			t.Fatal(err)
		}
		for _, at := range p.scrapes {
			advanceTo(at)
			check(fmt.Sprintf("during hung poll %d", i+1))
		}
		advanceTo(p.start + every)
		if err := <-done; err == nil || !strings.Contains(err.Error(), "no answer within the poll's deadline") {
			t.Fatalf("hung poll %d: %v", i+1, err)
		}
		check(fmt.Sprintf("after hung poll %d", i+1))
	}
}
