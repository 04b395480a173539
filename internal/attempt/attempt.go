// Package attempt holds the mechanics of one HTTP attempt that need no
// client: what a response's status says about trying again, how long to
// wait before that, reading a body whole within a bound, and noticing a
// connection gone silent.
package attempt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/internal/clock"
)

// Verdict is what a response means for its request.
type Verdict struct {
	// Retry: the same request may succeed later (429, 5xx but 501).
	Retry bool
	// Throttle: the service is limiting the client's rate (429, or 503
	// with Retry-After).
	Throttle bool
	// Wait is the Retry-After of a 429 or 503, or 0.
	Wait time.Duration
}

// Classify is the Verdict of a response of status with header, at now.
func Classify(status int, header http.Header, now time.Time) Verdict {
	v := Verdict{Retry: status == http.StatusTooManyRequests || (status >= 500 && status != http.StatusNotImplemented)}
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		after := header.Get("Retry-After")
		v.Throttle = status == http.StatusTooManyRequests || after != ""
		v.Wait = RetryAfter(after, now)
	}
	return v
}

// MaxRetryAfter bounds a Retry-After, so a huge one cannot overflow.
const MaxRetryAfter = 365 * 24 * time.Hour

// RetryAfter reads a Retry-After header, in seconds or as an HTTP date. It
// returns 0 when there is none, or when it is in the past.
func RetryAfter(header string, now time.Time) time.Duration {
	if header == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(header, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, int64(MaxRetryAfter/time.Second))) * time.Second
	}
	if at, err := http.ParseTime(header); err == nil {
		if d := at.Sub(now); d > 0 {
			return min(d.Round(time.Second), MaxRetryAfter)
		}
	}
	return 0
}

// Backoff is the wait before retry n (0 for the first): exponential from
// lo with "equal jitter", between half and all of lo·2^n, capped at hi.
func Backoff(lo, hi time.Duration, n int) time.Duration {
	d := lo
	for range n {
		if d >= hi/2 {
			d = hi
			break
		}
		d *= 2
	}
	d = min(d, hi)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// TooLargeError is a body over the bound Read was given.
type TooLargeError struct {
	// ContentLength is what the response said it holds, or -1 when it
	// did not say and held more than Limit.
	ContentLength, Limit int64
}

// Error says the size and the bound.
func (e *TooLargeError) Error() string {
	if e.ContentLength < 0 {
		return fmt.Sprintf("more than %d bytes", e.Limit)
	}
	return fmt.Sprintf("Content-Length %d, limit %d", e.ContentLength, e.Limit)
}

// Read reads resp's whole body, at most limit bytes, calling progress
// after every read that brought bytes, and closes it. A body that ends
// before its framing says it ends (short of its Content-Length, a chunked
// body without its last chunk, a gzip body without its trailer) is
// io.ErrUnexpectedEOF, never a short body. A body of more than limit bytes
// is a *TooLargeError, read no further than the bound.
func Read(resp *http.Response, limit int64, progress func()) ([]byte, error) {
	defer resp.Body.Close()
	r := &progressReader{r: resp.Body, progress: progress}
	n := resp.ContentLength
	if n > limit {
		return nil, &TooLargeError{ContentLength: n, Limit: limit}
	}
	if n < 0 {
		body, err := io.ReadAll(io.LimitReader(r, limit+1))
		if err == nil && int64(len(body)) > limit {
			return nil, &TooLargeError{ContentLength: -1, Limit: limit}
		}
		return body, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// progressReader calls progress after every read that brought bytes.
type progressReader struct {
	r        io.Reader
	progress func()
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if n > 0 {
		p.progress()
	}
	return n, err
}

// StallWatch abandons an attempt that receives nothing for d: no response
// headers yet, or no new body bytes. It bounds silence, not the whole
// attempt, so a large body over a slow link succeeds while bytes come.
type StallWatch struct {
	timer clock.Timer
	d     time.Duration
}

// NewStallWatch starts a watch on clk that calls cancel with a
// *StallError after d of silence; d <= 0 watches nothing.
func NewStallWatch(clk clock.Clock, d time.Duration, cancel context.CancelCauseFunc) *StallWatch {
	if d <= 0 {
		return &StallWatch{}
	}
	return &StallWatch{d: d, timer: clk.AfterFunc(d, func() { cancel(&StallError{D: d}) })}
}

// Kick restarts the wait: bytes came.
func (w *StallWatch) Kick() {
	if w.timer != nil {
		w.timer.Reset(w.d)
	}
}

// Stop ends the watch.
func (w *StallWatch) Stop() {
	if w.timer != nil {
		w.timer.Stop()
	}
}

// StalledOr returns the stall that cancelled an attempt's ctx, or else
// err.
func StalledOr(ctx context.Context, err error) error {
	var stall *StallError
	if errors.As(context.Cause(ctx), &stall) {
		return stall
	}
	return err
}

// StallError is an attempt abandoned because the connection went silent
// for D. It matches os.ErrDeadlineExceeded, as a read deadline on the
// connection would.
type StallError struct{ D time.Duration }

// Error says how long nothing came.
func (e *StallError) Error() string {
	return fmt.Sprintf("connection stalled: nothing received for %s", e.D)
}

// Is matches os.ErrDeadlineExceeded.
func (e *StallError) Is(target error) bool { return target == os.ErrDeadlineExceeded }

// Timeout reports true, as net.Error's timeouts do.
func (e *StallError) Timeout() bool { return true }

// CheckHeader refuses a request header that net/http would refuse to
// send: a name that is not an RFC 9110 token (§5.6.2), a value with a
// control character other than tab (CR, LF and NUL among them). net/http
// refuses one only when an attempt sends it, as an error a retry engine
// takes for a network failure. The error never quotes the value: it may
// be a credential.
func CheckHeader(name, value string) error {
	if name == "" {
		return errors.New("empty header name")
	}
	for i := 0; i < len(name); i++ {
		if !isTokenByte(name[i]) {
			return fmt.Errorf("header name %q has %q at byte %d: want letters, digits and !#$%%&'*+-.^_`|~", name, name[i], i)
		}
	}
	for i := 0; i < len(value); i++ {
		if b := value[i]; b < ' ' && b != '\t' || b == 0x7f {
			return fmt.Errorf("the value of %s has a control character at byte %d (%q), which cannot be sent in a header", name, i, b)
		}
	}
	return nil
}

// isTokenByte tells the bytes of an RFC 9110 token: the visible ASCII
// characters but the delimiters.
func isTokenByte(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	switch b {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// Origin returns scheme://host:port with the default port made explicit,
// so https://h and https://h:443 are one origin.
func Origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return strings.ToLower(u.Scheme + "://" + u.Hostname() + ":" + port)
}
