package gamedatatest

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// FaultInjector is an http.Handler middleware that injects seeded faults
// into the responses of the handler it wraps, and logs every request it
// sees. The twin's own Server is built on one; wrap any handler with
// InjectFaults to test a client against the same faults. Its methods are
// safe for concurrent use.
type FaultInjector struct {
	next http.Handler
	seed int64 // used when Faults.Seed is 0

	mu sync.Mutex
	d  *faultDraw

	log requestLog

	done      chan struct{}
	closeOnce sync.Once
}

// InjectFaults returns a FaultInjector serving next with fault injection f.
// Call Close before closing the server it runs in, so that no stalled
// request holds the server open.
func InjectFaults(next http.Handler, f Faults) *FaultInjector {
	return newFaultInjector(next, f, DefaultSeed)
}

func newFaultInjector(next http.Handler, f Faults, seed int64) *FaultInjector {
	fi := &FaultInjector{next: next, seed: seed, done: make(chan struct{})}
	fi.Set(f)
	return fi
}

// Set replaces the fault injection, and restarts its random sequence (and
// the Attempts counts) from the fault seed, so that the same requests in
// the same order meet the same faults.
func (fi *FaultInjector) Set(f Faults) {
	d := newFaultDraw(f, fi.seed)
	fi.mu.Lock()
	fi.d = d
	fi.mu.Unlock()
}

// Close ends every stall in progress, closing its connection, and returns
// once their entries in Requests are final; later stalls end at once. It
// does not close the wrapped handler, and the injector goes on serving.
func (fi *FaultInjector) Close() {
	fi.closeOnce.Do(func() { close(fi.done) })
	fi.log.settle(func(r Request) bool { return r.Fault == FaultStallHeaders || r.Fault == FaultStallBody })
}

// Requests returns the log of the requests received so far, in the order
// they arrived. A request still being answered has Done false.
func (fi *FaultInjector) Requests() []Request { return fi.log.requests() }

// WaitRequests blocks until at least n requests have arrived (answered or
// not, stalled ones included) or ctx is done, and returns ctx.Err() then.
func (fi *FaultInjector) WaitRequests(ctx context.Context, n int) error {
	return fi.log.wait(ctx, n)
}

// ServeHTTP serves r through the wrapped handler, or answers it with the
// fault it draws.
func (fi *FaultInjector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fi.mu.Lock()
	d := fi.d
	fault := d.draw(r)
	fi.mu.Unlock()
	i := fi.log.add(Request{Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.Query(), Fault: fault})
	cw := newCountingWriter(w, &fi.log, i)
	defer cw.finish()
	switch fault {
	case 0:
		fi.next.ServeHTTP(cw, r)
	case Fault500, Fault502, Fault503, Fault429:
		statusReply(fault, d.f.RetryAfter).write(cw)
	case FaultReset:
		cw.hangUp(true)
	case FaultStallHeaders:
		if !fi.stall(r, d.f.Stall) {
			cw.hangUp(false)
			return
		}
		fi.next.ServeHTTP(cw, r)
	case FaultCustom:
		d.f.Answer(cw, r, fi.record(r))
	default:
		fi.cut(cw, r, fault, d.f.Stall)
	}
}

// record runs the wrapped handler into a whole Response.
func (fi *FaultInjector) record(r *http.Request) Response {
	rec := httptest.NewRecorder()
	fi.next.ServeHTTP(rec, r)
	return Response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// cut sends the real answer broken by fault, one of the faults that need
// its body.
func (fi *FaultInjector) cut(w *countingWriter, r *http.Request, fault Fault, stall time.Duration) {
	real := fi.record(r)
	body := real.Body
	for k, v := range real.Header {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	switch fault {
	case FaultTruncate, FaultStallBody:
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	case FaultGzipCut:
		body = gzipped(body)
		w.Header().Set("Content-Encoding", "gzip")
	}
	half := len(body) / 2
	if fault == FaultGzipCut {
		half = min(half, len(body)-gzipTrailer)
	}
	w.WriteHeader(real.Status)
	w.Write(body[:half])
	w.Flush()
	if fault == FaultStallBody && fi.stall(r, stall) {
		w.Write(body[half:])
		return
	}
	w.hangUp(false)
}

// gzipTrailer is the length of a gzip stream's trailer (CRC-32 and size).
const gzipTrailer = 8

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// stall waits until the client goes away, the bound d passes (d > 0) or
// the injector is closed. It reports whether the bound passed, so the
// answer goes on; otherwise the caller abandons it.
func (fi *FaultInjector) stall(r *http.Request, d time.Duration) bool {
	var bound <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		bound = t.C
	}
	select {
	case <-bound:
		return true
	case <-r.Context().Done():
	case <-fi.done:
	}
	return false
}
