package gamedata

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Middleware wraps every attempt a call sends: the first, each retry and
// each redirect it follows. It may change req, answer without calling
// next, or look at what next returns; next.Route and next.Attempt say
// which call and which attempt it is. A fresh cache hit sends no attempt,
// so no middleware sees it: read that from the call's Response, or from
// Hooks.OnDone.
//
// The order is fixed: a request passes the client's middleware
// (WithMiddleware), in the order given, the first outermost; then the
// call's (WithCallMiddleware), in the order given; then the transport.
// The response comes back the other way. Every attempt has waited on the
// rate limiter before it reaches the first middleware, and runs under
// the attempt's timeout; its body is unread when next returns, and the
// client reads it whole once the outermost middleware has returned.
type Middleware func(req *http.Request, next Next) (*http.Response, error)

// Next is the rest of an attempt's chain, handed to a Middleware. It stays
// valid for as long as the middleware keeps it, a retry of the same call
// included.
type Next struct {
	ch *chain
	i  int // the index in ch.middleware of the next middleware to run
}

// chain is a call's middleware and what they may ask of it: the call
// keeps one and passes each attempt through it.
type chain struct {
	middleware []Middleware // the client's, then the call's
	transport  http.RoundTripper
	route      string
	attempt    int
}

// roundTrip sends req through the whole chain, and takes what comes back
// as net/http's client takes a RoundTripper's answer: a nil Body is an
// empty one, unless the response says it has bytes.
func (ch *chain) roundTrip(req *http.Request) (*http.Response, error) {
	resp, err := Next{ch: ch}.RoundTrip(req)
	switch {
	case err != nil:
		return nil, err
	case resp == nil:
		return nil, errors.New("gamedata: the transport returned neither a response nor an error")
	case resp.Body == nil && resp.ContentLength > 0:
		return nil, fmt.Errorf("gamedata: a response with a nil Body and Content-Length %d", resp.ContentLength)
	case resp.Body == nil:
		resp.Body = http.NoBody
	}
	return resp, nil
}

// RoundTrip sends req through the rest of the chain.
func (n Next) RoundTrip(req *http.Request) (*http.Response, error) {
	if n.ch == nil {
		return nil, errors.New("gamedata: Next used outside a call's middleware")
	}
	if n.i < len(n.ch.middleware) {
		resp, err := n.ch.middleware[n.i](req, Next{ch: n.ch, i: n.i + 1})
		if resp == nil && err == nil {
			return nil, errors.New("gamedata: a middleware returned neither a response nor an error")
		}
		return resp, err
	}
	return n.ch.transport.RoundTrip(req)
}

// Route is the call's route template, such as
// "/api/packages/{kind}/{ident}": one per endpoint, whatever the
// identifiers, so it is fit for a metric label.
func (n Next) Route() string {
	if n.ch == nil {
		return ""
	}
	return n.ch.route
}

// Attempt is the attempt's number in its call: 1 for the first, 2 for
// the first retry. A redirect keeps the number of the attempt it belongs
// to.
func (n Next) Attempt() int {
	if n.ch == nil {
		return 0
	}
	return n.ch.attempt
}

// Hooks are the client's callbacks for the events of a call that no
// attempt shows a middleware: its start, the retries it decided on, the
// throttling it met, and how it ended, cache outcome and rate-limit wait
// included. They are the one way to observe those events; a nil hook is
// not called. Each receives the call's context. Hooks run in the
// goroutine of the call, and a call waits for them: keep them short.
type Hooks struct {
	// OnStart is called when a call starts, before the cache is read; a
	// call refused before it started (a bad argument or option) is not
	// reported. The context it returns, derived from ctx, is the call's
	// from then on: every attempt's request carries it, and the other
	// hooks receive it, so a tracer starts the call's span here. A nil
	// context keeps ctx.
	OnStart func(ctx context.Context, e StartEvent) context.Context
	// OnRetry is called before the wait that precedes each retry.
	OnRetry func(ctx context.Context, e RetryEvent)
	// OnThrottle is called for each attempt the service throttled: a
	// 429, or a 503 with Retry-After.
	OnThrottle func(ctx context.Context, e ThrottleEvent)
	// OnDone is called once for every call OnStart saw, when it ends,
	// with its Response and its error (nil on success).
	OnDone func(ctx context.Context, e DoneEvent)
}

// StartEvent describes a call that starts.
type StartEvent struct {
	// Route is the call's route template.
	Route string
	// URL is the URL the call reads, as it is sent (its identifiers and
	// query are the caller's).
	URL string
}

// RetryEvent describes a retry a call is about to make.
type RetryEvent struct {
	// Route is the call's route template.
	Route string
	// Attempt is the number of the attempt that failed; the retry is
	// Attempt+1.
	Attempt int
	// StatusCode is the failed attempt's status, or 0 when it got no
	// response; Err is then its error.
	StatusCode int
	Err        error
	// Wait is the backoff, or the Retry-After, before the retry.
	Wait time.Duration
}

// ThrottleEvent describes an attempt the service throttled.
type ThrottleEvent struct {
	// Route is the call's route template.
	Route string
	// Attempt is the attempt's number in its call.
	Attempt int
	// StatusCode is 429 or 503.
	StatusCode int
	// RetryAfter is the wait the service asked for, or 0.
	RetryAfter time.Duration
}

// DoneEvent describes a call that ended.
type DoneEvent struct {
	// Route is the call's route template.
	Route string
	// Response is what the call learnt.
	Response Response
	// Err is the call's error, or nil.
	Err error
}
