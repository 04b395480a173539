package gamedatatest

import (
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Fault is a kind of failure the twin can inject into a response.
type Fault int

// The faults. The zero Fault means no fault.
const (
	// Fault500 answers 500 Internal Server Error with a JSON error body.
	Fault500 Fault = iota + 1
	// Fault502 answers 502 Bad Gateway with a JSON error body.
	Fault502
	// Fault503 answers 503 Service Unavailable with a JSON error body and,
	// when Faults.RetryAfter is set, a Retry-After header.
	Fault503
	// Fault429 answers 429 Too Many Requests with a JSON error body and,
	// when Faults.RetryAfter is set, a Retry-After header.
	Fault429
	// FaultReset closes the connection with a TCP reset before sending
	// anything. Go's http.Transport retries a GET once by itself when this
	// happens on a reused keep-alive connection; the retry is a new request
	// in Server.Requests and draws its own fault.
	FaultReset
	// FaultTruncate sends the real status, headers and a Content-Length, then
	// only half of the body, and closes the connection.
	FaultTruncate
	// FaultChunkedCut sends the real status and headers without a
	// Content-Length, so the body goes chunked, then half of the body, and
	// closes the connection before the last chunk.
	FaultChunkedCut
	// FaultGzipCut sends the real body gzip-compressed
	// (Content-Encoding: gzip, chunked), and closes the connection halfway
	// through the compressed stream, before the gzip trailer.
	FaultGzipCut
	// FaultStallHeaders reads the request and sends nothing: no status, no
	// headers. See Faults.Stall for how long.
	FaultStallHeaders
	// FaultStallBody sends the real status, headers and a Content-Length,
	// then half of the body, then nothing. See Faults.Stall for how long.
	FaultStallBody
)

// allFaults are the faults drawn when Faults.Kinds is empty. The stalls
// are left out: a stall holds a connection until the client gives up, so
// only a test that asks for one by name gets it.
var allFaults = []Fault{Fault500, Fault502, Fault503, Fault429, FaultReset, FaultTruncate, FaultChunkedCut, FaultGzipCut}

// String returns a short name of the fault, such as "500" or "reset".
func (f Fault) String() string {
	switch f {
	case 0:
		return "none"
	case Fault500, Fault502, Fault503, Fault429:
		return strconv.Itoa(f.status())
	case FaultReset:
		return "reset"
	case FaultTruncate:
		return "truncate"
	case FaultChunkedCut:
		return "chunked-cut"
	case FaultGzipCut:
		return "gzip-cut"
	case FaultStallHeaders:
		return "stall-headers"
	case FaultStallBody:
		return "stall-body"
	}
	return "Fault(" + strconv.Itoa(int(f)) + ")"
}

func (f Fault) status() int {
	switch f {
	case Fault500:
		return http.StatusInternalServerError
	case Fault502:
		return http.StatusBadGateway
	case Fault503:
		return http.StatusServiceUnavailable
	case Fault429:
		return http.StatusTooManyRequests
	}
	return 0
}

// Faults configures fault injection. It applies to paths under /api/ only,
// never to /openapi.json. The zero Faults injects nothing.
type Faults struct {
	// Rate is the fraction of responses that fail, from 0 to 1.
	Rate float64
	// Kinds are the faults to draw from, uniformly; empty means all but
	// the stalls, which only Kinds asks for.
	Kinds []Fault
	// RetryAfter is sent, in whole seconds rounded up, as the Retry-After
	// header of 429 and 503 faults; 0 sends no header.
	RetryAfter time.Duration
	// Stall bounds how long FaultStallHeaders and FaultStallBody hold a
	// connection before the twin closes it without finishing the
	// response; 0 holds it until the client goes away or the server is
	// closed.
	Stall time.Duration
	// Seed seeds the fault sequence; 0 uses the server's seed. The sequence
	// is separate from the data's, so the same seed replays the same faults
	// for the same requests in the same order.
	Seed int64
}

// faultState draws faults from a seeded generator.
type faultState struct {
	mu    sync.Mutex
	seed  int64 // the server's seed
	f     Faults
	kinds []Fault
	rng   *rand.Rand
}

func (h *handler) setFaults(f Faults) {
	s := &h.faults
	s.mu.Lock()
	defer s.mu.Unlock()
	f.Rate = math.Min(math.Max(f.Rate, 0), 1)
	if math.IsNaN(f.Rate) {
		f.Rate = 0
	}
	s.kinds = nil
	for _, k := range f.Kinds {
		if k >= Fault500 && k <= FaultStallBody {
			s.kinds = append(s.kinds, k)
		}
	}
	if len(s.kinds) == 0 {
		s.kinds = allFaults
	}
	f.Kinds = append([]Fault(nil), f.Kinds...)
	s.f = f
	seed := f.Seed
	if seed == 0 {
		seed = s.seed
	}
	s.rng = rand.New(rand.NewPCG(uint64(seed), streamFaults))
}

// draw decides the fault of one response; 0 means none.
func (s *faultState) draw() Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f.Rate <= 0 {
		return 0
	}
	// Two draws for every response, failing or not, keep the sequence
	// aligned with the request count.
	fail := s.rng.Float64() < s.f.Rate
	k := s.kinds[s.rng.IntN(len(s.kinds))]
	if !fail {
		return 0
	}
	return k
}

// stallBound is Faults.Stall.
func (s *faultState) stallBound() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Stall
}

func (s *faultState) reply(f Fault) reply {
	s.mu.Lock()
	retryAfter := s.f.RetryAfter
	s.mu.Unlock()
	rep := errorReply(f.status(), "injected fault: "+http.StatusText(f.status()))
	if (f == Fault429 || f == Fault503) && retryAfter > 0 {
		secs := int(math.Ceil(retryAfter.Seconds()))
		rep.header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	}
	return rep
}

// closeConn closes the connection under w at once, with a TCP reset when
// hard is set (a clean close keeps the bytes already sent readable). Without
// a Hijacker (HTTP/2) it aborts the response instead.
func closeConn(w http.ResponseWriter, hard bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok && hard {
		tc.SetLinger(0) // send RST: a reset, not a clean close
	}
	conn.Close()
}

// bucket is a token bucket; a zero rate means no limit.
type bucket struct {
	mu     sync.Mutex
	rate   float64 // tokens a second
	burst  float64
	tokens float64
	last   time.Time
}

func (b *bucket) refill(now time.Time) {
	if b.rate > 0 && now.After(b.last) {
		b.tokens = math.Min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
}

func (b *bucket) set(perSecond float64, burst int, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if math.IsNaN(perSecond) || perSecond <= 0 {
		b.rate = 0
		return
	}
	if b.rate == 0 {
		b.tokens = float64(max(burst, 1)) // a new limit starts full
	} else {
		b.refill(now)
	}
	b.rate, b.burst, b.last = perSecond, float64(max(burst, 1)), now
	b.tokens = math.Min(b.tokens, b.burst)
}

// take spends a token. When none is left it reports how long until one is.
func (b *bucket) take(now time.Time) (bool, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.rate == 0 {
		return true, 0
	}
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}
