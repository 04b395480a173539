package gamedatatest

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
)

// Request is one request the twin (or a FaultInjector) received, as
// recorded by Server.Requests.
type Request struct {
	// Method is the request method.
	Method string
	// Path is the request path as it arrived, still percent-encoded
	// (for example /api/packages/game/a%2Fb).
	Path string
	// Query is the parsed query string.
	Query url.Values
	// Status is the status code sent, or 0 when the connection was closed
	// before any response (FaultReset) or nothing was sent yet (a stall).
	Status int
	// Fault is the fault injected into this response, or 0 for none. It is
	// set when the request arrives, so a stalled request shows its fault.
	Fault Fault
	// Bytes is the number of body bytes sent so far: 0 for a 304, half
	// the body for a cut. Summing it over a walk gives what the walk
	// transferred.
	Bytes int
	// Done is false while the request is still being answered (a stall),
	// true once its handler has returned.
	Done bool
}

// requestLog is the log of requests in the order they arrived.
type requestLog struct {
	mu      sync.Mutex
	log     []Request
	arrived chan struct{} // closed and replaced at every arrival
}

// add records an arriving request and returns its index.
func (l *requestLog) add(rec Request) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, rec)
	if l.arrived != nil {
		close(l.arrived)
	}
	l.arrived = make(chan struct{})
	return len(l.log) - 1
}

// finish records what was sent for request i.
func (l *requestLog) finish(i int, w *countingWriter) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log[i].Status, l.log[i].Bytes, l.log[i].Done = w.status, w.bytes, true
}

// update records what has been sent so far for request i, before it is
// done.
func (l *requestLog) update(i int, w *countingWriter) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log[i].Status, l.log[i].Bytes = w.status, w.bytes
}

func (l *requestLog) requests() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, len(l.log))
	copy(out, l.log)
	return out
}

// wait blocks until n requests have arrived or ctx is done.
func (l *requestLog) wait(ctx context.Context, n int) error {
	for {
		l.mu.Lock()
		if len(l.log) >= n {
			l.mu.Unlock()
			return nil
		}
		if l.arrived == nil {
			l.arrived = make(chan struct{})
		}
		ch := l.arrived
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// countingWriter records the status and the body bytes written through
// it. It passes Flush and Hijack on, and Unwrap serves
// http.ResponseController.
type countingWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *countingWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *countingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *countingWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *countingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
