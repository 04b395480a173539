package exporter

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata"
)

// TestRefusedConnection polls a closed loopback port: whether the client
// has given up (no retries) or is waiting to retry when the poll's
// deadline passes (a fake clock moved past it once a retry is due), every
// source's failure, in the poll's error and in the log, says the
// connection was refused at that address and what to check, never that
// the service is slow.
func TestRefusedConnection(t *testing.T) {
	addr := freePort(t) // free, so closed: a connection to it is refused
	for _, tc := range []struct {
		name     string
		retrying bool
	}{
		{"no retries", false},
		{"waiting to retry at the deadline", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			retried := make(chan struct{}, 1)
			opts := []gamedata.Option{gamedata.WithCache(nil)}
			if tc.retrying {
				// A retry an hour away, which only the deadline ends.
				opts = append(opts, gamedata.WithRetryMax(3), gamedata.WithBackoff(time.Hour, time.Hour),
					gamedata.WithHooks(gamedata.Hooks{OnRetry: func(context.Context, gamedata.RetryEvent) {
						select {
						case retried <- struct{}{}:
						default:
						}
					}}))
			}
			e, logs, clock := newExporter(t, newClient(t, "http://"+addr, opts...), Config{Kinds: []string{"game"}, Every: time.Second})
			done := make(chan error, 1)
			go func() { done <- e.Poll(guard(t)) }()
			if tc.retrying {
				<-retried
				clock.Advance(time.Second)
			}
			err := <-done
			want := "connection refused at " + addr + ": is the service up, and is --base-url right?"
			if err == nil || strings.Count(err.Error(), want) != 2 {
				t.Errorf("poll: %v; want both sources to say %q", err, want)
			}
			if got := logs.String(); strings.Count(got, want) != 2 || strings.Contains(got, "slow or stalled") {
				t.Errorf("log:\n%s\nwant two poll failures saying %q", got, want)
			}
		})
	}
}
