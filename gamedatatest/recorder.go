package gamedatatest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// Transport returns an http.RoundTripper for a client of the service,
// carrying its requests over next (http.DefaultTransport when nil). A
// request the recording replays (every request in ModeNone and in
// ModeOnce once the file exists, in ModeNewEpisodes one whose match key
// the file holds) is answered from the recording, and next never sees
// it; any other is sent over next, and its answer recorded once its body
// has been read to the end. The answer reaches the caller as next gave
// it; what is kept is scrubbed, its body decoded.
//
// Under the gamedata client's retries and redirects it sees every
// attempt: a throttle or a server error that a later attempt of the same
// request recovered from is left out when the recording is saved, and a
// transport error or a body cut short is never kept.
func (r *Recording) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &recorder{r: r, next: next}
}

type recorder struct {
	r    *Recording
	next http.RoundTripper
}

func (t *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r := t.r
	m := r.matchOf(req.Method, req.URL)
	if r.replays(m.key) {
		w := httptest.NewRecorder()
		r.answer(req, m).write(w)
		resp := w.Result()
		resp.Request = req
		return resp, nil
	}
	x := r.begin(req, m)
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err // x is never done: a transport error is not kept
	}
	resp.Body = &teeBody{
		ReadCloser: resp.Body,
		length:     resp.ContentLength,
		end: func(body []byte, whole bool) {
			r.end(x, req, resp, body, whole)
		},
	}
	return resp, nil
}

// replays reports whether a request of key is answered from the
// recording rather than sent.
func (r *Recording) replays(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.offline || len(r.replayed[key]) > 0
}

// begin records a request about to be sent, scrubbed, and numbers it
// among those of its key.
func (r *Recording) begin(req *http.Request, m match) *exchange {
	target := req.URL.EscapedPath()
	if q := r.rules.rawQuery(req.URL.RawQuery); q != "" {
		target += "?" + q
	}
	x := &exchange{match: m, method: req.Method, target: target, request: r.rules.header(req.Header)}
	r.mu.Lock()
	defer r.mu.Unlock()
	x.seq = r.sent[m.key]
	r.sent[m.key]++
	r.added = append(r.added, x)
	return x
}

// maxRecorded bounds a body a recording keeps, decoded: saving refuses
// a larger one, saying so.
const maxRecorded = 64 << 20

// end records the answer of x, resp to req, once its body has been read:
// whole, or not (then x is not kept). The headers are scrubbed, a
// Location stripped of user information and made a path when it is
// same-origin, the secrets of the exchange replaced wherever the service
// echoed them, and the body decoded.
func (r *Recording) end(x *exchange, req *http.Request, resp *http.Response, body []byte, whole bool) {
	if !whole {
		return
	}
	header := r.rules.header(resp.Header)
	if loc, err := url.Parse(header.Get("Location")); err == nil && header.Get("Location") != "" {
		if loc.Scheme == req.URL.Scheme && loc.Host == req.URL.Host {
			loc.Scheme, loc.Host = "", ""
		}
		loc.User = nil // a password there is a credential, and "//user@/path" no path
		loc.RawQuery = r.rules.rawQuery(loc.RawQuery)
		header.Set("Location", loc.String())
	}
	secrets := r.rules.secrets(req.Header, req.URL.RawQuery, resp.Header)
	redactHeader(header, secrets)
	var failure error
	switch enc := strings.ToLower(resp.Header.Get("Content-Encoding")); enc {
	case "", "identity":
	case "gzip", "x-gzip":
		// The caller asked for gzip itself, so the transport left it: the
		// recording keeps what it encodes.
		body, failure = gunzip(body)
	default:
		failure = fmt.Errorf("the response is %q-encoded, which a recording cannot decode: do not ask for that Accept-Encoding", enc)
	}
	if len(body) > maxRecorded {
		body, failure = nil, fmt.Errorf("a body of more than %d bytes, which a recording does not keep", maxRecorded)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	x.proto, x.status, x.header, x.body = resp.Proto, resp.StatusCode, header, redact(body, secrets)
	x.failure, x.done = failure, true
}

func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("a gzip body that does not decode: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxRecorded+1))
	if err != nil {
		return nil, fmt.Errorf("a gzip body that does not decode: %w", err)
	}
	return out, nil
}

// teeBody keeps a copy of a body as the caller reads it, and calls end
// once, with the copy and whether it is whole: when the body ends, when
// its declared length has been read (a reader of a known length need not
// read on to the end), on a read error, or when it is closed first. The
// copy holds at most one byte more than maxRecorded, enough for end to
// tell a body too large to keep.
type teeBody struct {
	io.ReadCloser
	length int64 // -1 when unknown
	read   int64
	buf    bytes.Buffer
	once   sync.Once
	end    func(body []byte, whole bool)
}

func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if room := maxRecorded + 1 - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(n, room)])
	}
	switch {
	case err == io.EOF:
		b.finish(true)
	case err != nil:
		b.finish(false)
	case b.length >= 0 && b.read == b.length:
		b.finish(true)
	}
	return n, err
}

func (b *teeBody) Close() error {
	b.finish(b.length >= 0 && b.read == b.length)
	return b.ReadCloser.Close()
}

func (b *teeBody) finish(whole bool) {
	b.once.Do(func() { b.end(b.buf.Bytes(), whole) })
}
