package gamedatatest

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
	// and true once its answer is over: the handler has returned, the
	// injector has closed the connection, or the last byte of a declared
	// Content-Length is on its way. The log is written before the bytes
	// it counts are sent, so a client that has read a whole answer, or
	// seen the injector close the connection, finds its entry final.
	Done bool
}

// requestLog is the log of requests in the order they arrived.
type requestLog struct {
	mu      sync.Mutex
	log     []Request
	changed chan struct{} // made by a waiter, closed at the next change
}

// changedLocked wakes the waiters; the caller holds l.mu.
func (l *requestLog) changedLocked() {
	if l.changed != nil {
		close(l.changed)
		l.changed = nil
	}
}

// add records an arriving request and returns its index.
func (l *requestLog) add(rec Request) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log = append(l.log, rec)
	l.changedLocked()
	return len(l.log) - 1
}

// record sets what has been sent for request i, and marks it Done when
// done; an entry once Done stays Done.
func (l *requestLog) record(i, status, bytes int, done bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := &l.log[i]
	e.Status, e.Bytes, e.Done = status, bytes, e.Done || done
	l.changedLocked()
}

func (l *requestLog) requests() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Request, len(l.log))
	copy(out, l.log)
	return out
}

// waitUntil blocks until cond holds for the log or ctx is done. cond runs
// with the log locked and must not keep the slice.
func (l *requestLog) waitUntil(ctx context.Context, cond func([]Request) bool) error {
	for {
		l.mu.Lock()
		if cond(l.log) {
			l.mu.Unlock()
			return nil
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// wait blocks until n requests have arrived or ctx is done.
func (l *requestLog) wait(ctx context.Context, n int) error {
	return l.waitUntil(ctx, func(log []Request) bool { return len(log) >= n })
}

// settle blocks until every request that has arrived, and that pick
// selects, is Done. Requests arriving meanwhile are not waited for.
func (l *requestLog) settle(pick func(Request) bool) {
	l.mu.Lock()
	n := len(l.log)
	l.mu.Unlock()
	l.waitUntil(context.Background(), func(log []Request) bool {
		for _, r := range log[:n] {
			if !r.Done && pick(r) {
				return false
			}
		}
		return true
	})
}

// countingWriter records in the log the status and the body bytes written
// through it, before it passes them on. It passes Flush and Hijack on, and
// Unwrap serves http.ResponseController.
type countingWriter struct {
	http.ResponseWriter
	log    *requestLog
	i      int // the request's index in log
	status int
	bytes  int
	length int // the declared Content-Length, or -1
}

func newCountingWriter(w http.ResponseWriter, log *requestLog, i int) *countingWriter {
	return &countingWriter{ResponseWriter: w, log: log, i: i, length: -1}
}

// begin records the status of the answer, once, with its declared length.
func (w *countingWriter) begin(status int) {
	if w.status != 0 {
		return
	}
	w.status = status
	if n, err := strconv.Atoi(w.Header().Get("Content-Length")); err == nil && n >= 0 {
		w.length = n
	}
	w.log.record(w.i, w.status, w.bytes, false)
}

func (w *countingWriter) WriteHeader(status int) {
	w.begin(status)
	w.ResponseWriter.WriteHeader(status)
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.begin(http.StatusOK)
	sent := w.bytes + len(b)
	w.log.record(w.i, w.status, sent, w.length >= 0 && sent >= w.length)
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	if n < len(b) {
		w.log.record(w.i, w.status, w.bytes, false)
	}
	return n, err
}

// finish marks the answer over.
func (w *countingWriter) finish() { w.log.record(w.i, w.status, w.bytes, true) }

// hangUp closes the connection under w at once, with a TCP reset when hard
// is set (a clean close keeps the bytes already sent readable), the entry
// final first. Without a Hijacker (HTTP/2) it aborts the response instead;
// the handler's deferred finish runs before the server resets the stream.
func (w *countingWriter) hangUp(hard bool) {
	conn, _, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok && hard {
		tc.SetLinger(0) // send RST: a reset, not a clean close
	}
	w.finish()
	conn.Close()
}

func (w *countingWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

func (w *countingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
