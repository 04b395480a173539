package gamedatatest

import (
	"cmp"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
	// closes the connection before the terminating chunk: the client's
	// chunked reader ends with io.ErrUnexpectedEOF.
	FaultChunkedCut
	// FaultGzipCut sends the real body gzip-compressed (Content-Encoding:
	// gzip, chunked, whatever the request's Accept-Encoding says), cut in
	// the middle of the compressed stream, before the gzip trailer. A
	// default Go client, which asks for gzip itself and decompresses
	// transparently, reads io.ErrUnexpectedEOF.
	FaultGzipCut
	// FaultStallHeaders reads the request and sends nothing until the client
	// goes away, Faults.Stall passes (then the real answer is sent), or the
	// injector is closed (then the connection is closed).
	FaultStallHeaders
	// FaultStallBody sends the real status, headers, Content-Length and
	// half of the body, then nothing until the client goes away,
	// Faults.Stall passes (then the rest is sent), or the injector is
	// closed (then the connection is closed).
	FaultStallBody
	// FaultCustom marks a request answered by Faults.Answer. It is never
	// drawn from Faults.Kinds.
	FaultCustom
)

// responseFaults are the faults drawn when Faults.Kinds is empty: the ones
// a client meets without a timeout of its own, in the order earlier versions
// drew them, so that a seed replays the same faults it always did.
var responseFaults = []Fault{Fault500, Fault502, Fault503, Fault429, FaultReset, FaultTruncate}

var faultNames = map[Fault]string{
	0:                 "none",
	FaultReset:        "reset",
	FaultTruncate:     "truncate",
	FaultChunkedCut:   "chunked-cut",
	FaultGzipCut:      "gzip-cut",
	FaultStallHeaders: "stall-headers",
	FaultStallBody:    "stall-body",
	FaultCustom:       "custom",
}

// String returns a short name of the fault, such as "500", "reset" or
// "stall-body".
func (f Fault) String() string {
	if s := f.status(); s != 0 {
		return strconv.Itoa(s)
	}
	if name, ok := faultNames[f]; ok {
		return name
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

// Response is a whole response of the handler a FaultInjector wraps, as
// Faults.Answer receives it.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Faults configures fault injection. The zero Faults injects nothing.
type Faults struct {
	// Rate is the fraction of matched requests that fail, from 0 to 1.
	Rate float64
	// Kinds are the faults to draw from, uniformly. Empty means Fault500
	// through FaultTruncate; the cut and stall faults are drawn only when
	// listed.
	Kinds []Fault
	// RetryAfter is sent, in whole seconds rounded up, as the Retry-After
	// header of 429 and 503 faults; 0 sends no header.
	RetryAfter time.Duration
	// Stall bounds FaultStallHeaders and FaultStallBody: after Stall the
	// response goes on as if nothing had happened. 0 stalls until the client
	// goes away or the injector is closed.
	Stall time.Duration
	// Seed seeds the fault sequence; 0 uses the server's seed (DefaultSeed
	// for InjectFaults). The sequence is separate from the data's, so the
	// same seed replays the same faults for the same requests in the same
	// order.
	Seed int64
	// Match says which requests may fail. Nil matches paths under /api/,
	// never /openapi.json.
	Match func(*http.Request) bool
	// Attempts, when positive, lets only the first Attempts matched requests
	// for each URL (path and query) fail; later ones are answered normally,
	// so a client that retries that often recovers. With Rate 1 the first
	// Attempts requests of every URL fail.
	Attempts int
	// Answer, when set, answers every failing request instead of a fault
	// drawn from Kinds, and the request is logged as FaultCustom. real is
	// the wrapped handler's whole answer to the same request, for answers
	// that alter it (a cut body, a redirect, bad JSON).
	Answer func(w http.ResponseWriter, r *http.Request, real Response)
}

// Respond returns a Faults.Answer that answers every failing request with
// resp whatever the real answer was: resp's headers, its status (200 when
// Status is 0) and its body. It is for answers the twin never gives of
// itself, such as a status it does not send (400, 501, 504), a Retry-After
// that is a date or garbage, a redirect of a record, a 304 to a request
// without validators, or a body that is not a record; with
// Faults.Attempts, the client then gets the real answer.
func Respond(resp Response) func(w http.ResponseWriter, r *http.Request, real Response) {
	return func(w http.ResponseWriter, _ *http.Request, _ Response) {
		for k, v := range resp.Header {
			w.Header()[k] = slices.Clone(v)
		}
		w.WriteHeader(cmp.Or(resp.Status, http.StatusOK))
		w.Write(resp.Body)
	}
}

// apiOnly is the default Faults.Match.
func apiOnly(r *http.Request) bool { return strings.HasPrefix(r.URL.EscapedPath(), "/api/") }

// faultDraw draws the faults of one Faults from its own seeded sequence.
type faultDraw struct {
	f        Faults
	kinds    []Fault
	rng      *rand.Rand
	attempts map[string]int // matched requests so far, by request URI
}

// newFaultDraw normalizes f; seed is used when f.Seed is 0.
func newFaultDraw(f Faults, seed int64) *faultDraw {
	f.Rate = math.Min(math.Max(f.Rate, 0), 1)
	if math.IsNaN(f.Rate) {
		f.Rate = 0
	}
	f.Kinds = slices.Clone(f.Kinds)
	f.Stall = max(f.Stall, 0)
	if f.Match == nil {
		f.Match = apiOnly
	}
	d := &faultDraw{f: f, attempts: map[string]int{}}
	for _, k := range f.Kinds {
		if k >= Fault500 && k < FaultCustom {
			d.kinds = append(d.kinds, k)
		}
	}
	if len(d.kinds) == 0 {
		d.kinds = responseFaults
	}
	if f.Seed != 0 {
		seed = f.Seed
	}
	d.rng = rand.New(rand.NewPCG(uint64(seed), streamFaults))
	return d
}

// streamFaults is the stream of the faults' seeded PCG generator, apart
// from the catalogue's streams so that one never shifts the other.
const streamFaults = 0x6661756c74000002

// draw decides the fault of one request; 0 means none. The caller holds
// the injector's lock.
func (d *faultDraw) draw(r *http.Request) Fault {
	if d.f.Rate <= 0 || !d.f.Match(r) {
		return 0
	}
	// Two draws for every matched request, failing or not, keep the
	// sequence aligned with the request count.
	fail := d.rng.Float64() < d.f.Rate
	k := d.kinds[d.rng.IntN(len(d.kinds))]
	if d.f.Attempts > 0 {
		uri := r.URL.RequestURI()
		d.attempts[uri]++
		if d.attempts[uri] > d.f.Attempts {
			return 0
		}
	}
	switch {
	case !fail:
		return 0
	case d.f.Answer != nil:
		return FaultCustom
	}
	return k
}

// statusReply is the answer of a status fault.
func statusReply(f Fault, retryAfter time.Duration) reply {
	rep := errorReply(f.status(), "injected fault: "+http.StatusText(f.status()))
	if (f == Fault429 || f == Fault503) && retryAfter > 0 {
		secs := int(math.Ceil(retryAfter.Seconds()))
		rep.header = http.Header{"Retry-After": {strconv.Itoa(secs)}}
	}
	return rep
}
