package exporter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/gamedata-go/gamedata"
)

// attempts keeps, for one poll, the last failure to connect to the
// service, until an attempt connects: a poll whose deadline passes while
// the client waits to retry it then says what failed, not that the
// service is slow.
type attempts struct {
	mu  sync.Mutex
	err error
}

type attemptsKey struct{}

// withAttempts is ctx carrying a for noteAttempts.
func withAttempts(ctx context.Context, a *attempts) context.Context {
	return context.WithValue(ctx, attemptsKey{}, a)
}

// noteAttempts is the call option of every request a poll sends: it
// notes how each attempt ended in the attempts its context carries. An
// attempt the poll's end cut short says nothing of the service.
var noteAttempts = gamedata.WithCallMiddleware(func(req *http.Request, next gamedata.Next) (*http.Response, error) {
	resp, err := next.RoundTrip(req)
	if a, ok := req.Context().Value(attemptsKey{}).(*attempts); ok && req.Context().Err() == nil {
		a.mu.Lock()
		a.err = nil
		if _, failed := unreachable(err); failed {
			a.err = err
		}
		a.mu.Unlock()
	}
	return resp, err
})

// lastFailure is the failure to connect of the poll's last attempt, nil
// when it connected.
func (a *attempts) lastFailure() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err
}

// unreachable says what to check when err is a failure to connect to the
// service (refused, a name that does not resolve, no route), in one line,
// sanitized; ok is false for any other error.
func unreachable(err error) (msg string, ok bool) {
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return "", false
	}
	what := "cannot connect to the service: " + op.Err.Error()
	if errors.Is(err, syscall.ECONNREFUSED) && op.Addr != nil {
		what = "connection refused at " + op.Addr.String()
	}
	return gamedata.NewUntrusted(what + ": is the service up, and is --base-url right?").String(), true
}

// unreachableError is a failure to connect said as what to check; the
// client's error stays in the chain.
type unreachableError struct {
	msg string
	err error
}

func (e *unreachableError) Error() string { return e.msg }

func (e *unreachableError) Unwrap() error { return e.err }

// said is a source's failure as a poll says it: a failure to connect as
// what to check, and a poll's deadline (when deadline is true) as the
// last attempt's failure to connect, which the client was waiting to
// retry, or else as a slow service.
func said(err error, deadline bool, every time.Duration, last error) error {
	if !deadline {
		if msg, ok := unreachable(err); ok {
			return &unreachableError{msg, err}
		}
		return err
	}
	if msg, ok := unreachable(last); ok {
		return &unreachableError{fmt.Sprintf("%s (still retrying when the poll's deadline, %v (--every), passed)", msg, every), last}
	}
	return fmt.Errorf("no answer within the poll's deadline, %v (--every): the service is slow or stalled", every)
}
