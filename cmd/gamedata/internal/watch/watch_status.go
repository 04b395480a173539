// Package watch holds what watch says as it polls: the status of each
// thing watched on stderr (not found, a streak of failed polls said once,
// a recovery), read from every attempt the client makes, and the lines
// that show a change on stdout.
package watch

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
)

// A watch prints changes only, so a package that does not exist, or a
// service that fails every poll, would look like a quiet one. The watch
// therefore says on stderr what it cannot see, once a change of state:
// a package not found at its first poll, and whenever it appears or goes
// again; the first failure of a streak, and the poll that ends it; a
// poll the service delays with Retry-After.
//
// The library's Watch yields changes and failures, never an unchanged
// poll, so the end of a streak and a first 404 are seen below it: the
// client's HTTP transport reports the status of every attempt once its
// body has come whole (a 200 whose body is cut is no answer), and each
// attempt is matched to what it polls by its path (and, for the
// directory, its page).

// Status is what a watch has said about each thing it polls.
type Status struct {
	mu     sync.Mutex
	errOut io.Writer
	things []*watched
	// directory is true when the thing is the directory, whose pages
	// answer 404 only in failure.
	directory bool
	// match returns the index of the thing req polls, or -1.
	match func(req *http.Request) int
}

// watched is one thing a watch polls: a package, or the directory.
type watched struct {
	name     string
	notFound bool // its last poll answered 404
	seen     bool // a poll has answered, found or not
	// failures counts the failed polls of the streak in progress.
	failures int
	// failedPage, for the directory, is the page the streak fails at: a
	// round that reads it again has passed the failure.
	failedPage int
	delay      time.Duration // the last Retry-After delay said
}

// PackageStatus watches refs, matched by their path.
func PackageStatus(errOut io.Writer, refs []gamedata.PackageRef) *Status {
	s := &Status{errOut: errOut}
	paths := make([]string, len(refs))
	for i, r := range refs {
		s.things = append(s.things, &watched{name: "package " + r.Kind + "/" + r.Ident})
		paths[i] = "/api/packages/" + url.PathEscape(r.Kind) + "/" + url.PathEscape(r.Ident)
	}
	s.match = func(req *http.Request) int {
		for i, p := range paths {
			if strings.HasSuffix(req.URL.EscapedPath(), p) {
				return i
			}
		}
		return -1
	}
	return s
}

// DirectoryStatus watches the directory of kind.
func DirectoryStatus(errOut io.Writer, kind string) *Status {
	name := "the directory"
	if kind != "" {
		name = "the " + kind + " directory"
	}
	s := &Status{errOut: errOut, things: []*watched{{name: name}}, directory: true}
	s.match = func(req *http.Request) int {
		if strings.HasSuffix(req.URL.EscapedPath(), "/api/dashboard") {
			return 0
		}
		return -1
	}
	return s
}

// attempt notes the status of an attempt to poll (0 for no answer). An
// answer ends a streak of failures (for the directory, an answer for the
// page the streak fails at); a package's 404 or 200 says whether it is
// found. A failure says nothing yet: the client may retry it, and a poll
// that fails in the end is yielded by the watch.
func (s *Status) attempt(req *http.Request, status int) {
	i := s.match(req)
	if i < 0 || !s.answered(status) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.things[i]
	if !s.directory || pageOf(req) == w.failedPage {
		s.recovered(w)
	}
	if !s.directory {
		s.found(w, status != http.StatusNotFound)
	}
}

// answered tells whether an attempt's status is an answer: a 2xx or a
// 304, or a 404 for a package (which says it is not found).
func (s *Status) answered(status int) bool {
	return status == http.StatusNotModified || (status >= 200 && status < 300) ||
		(status == http.StatusNotFound && !s.directory)
}

// recovered ends w's streak of failures, if one is in progress, and says
// so; s.mu is held.
func (s *Status) recovered(w *watched) {
	if w.failures > 0 {
		s.say("watch: polls of %s succeed again, after %s", w.name, message.Plural(w.failures, "failed poll"))
		w.failures, w.failedPage, w.delay = 0, 0, 0
	}
}

// found notes whether package w was found by a poll, and says when that
// changes: not found at the first poll or when it goes, found when it
// comes back; s.mu is held.
func (s *Status) found(w *watched, found bool) {
	switch {
	case !found && (!w.seen || !w.notFound):
		s.say("watch: %s is not found (404); watching for it to appear", w.name)
	case found && w.seen && w.notFound:
		s.say("watch: %s is found", w.name)
	}
	w.seen, w.notFound = true, !found
}

// Failed notes a poll of thing i that failed with err: the first of a
// streak is said, and a delay the service asked for.
func (s *Status) Failed(i int, err error) {
	if i < 0 || i >= len(s.things) {
		s.mu.Lock()
		s.say("watch: %v", err)
		s.mu.Unlock()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.things[i]
	var pe *gamedata.PageError
	if errors.As(err, &pe) {
		w.failedPage = pe.Page
	}
	w.failures++
	var delay *gamedata.WatchDelayError
	delayed := errors.As(err, &delay)
	switch {
	case w.failures == 1:
		s.say("watch: a poll of %s failed: %s; polling on, and saying when polls succeed again", w.name, pollFailure(err))
	case delayed && delay.Wait != w.delay:
		s.say("watch: %s: %v", w.name, delay)
	}
	if delayed {
		w.delay = delay.Wait
	}
}

// Changed notes that thing i changed: a round or poll that yields a
// change has succeeded.
func (s *Status) Changed(i int) {
	if i < 0 || i >= len(s.things) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recovered(s.things[i])
}

// say writes a line on stderr; s.mu is held.
func (s *Status) say(format string, args ...any) { message.Line(s.errOut, format, args...) }

// Transport is an HTTP transport over next that tells s the status of
// every attempt it carries.
func (s *Status) Transport(next http.RoundTripper) http.RoundTripper {
	return observed{next: next, seen: s.attempt}
}

// observed is a RoundTripper that reports each attempt's status.
type observed struct {
	next http.RoundTripper
	seen func(req *http.Request, status int)
}

// RoundTrip reports an attempt once its answer is whole: a status alone
// is no answer, since a cut body comes after a 200 (the attempt then
// fails, and is reported as no answer). A 304 has no body to wait for;
// any other answer counts when its body was read to its end and is JSON,
// what the client decodes.
func (o observed) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := o.next.RoundTrip(req)
	if err != nil {
		o.seen(req, 0)
		return resp, err
	}
	if resp.StatusCode == http.StatusNotModified {
		o.seen(req, resp.StatusCode)
		return resp, nil
	}
	resp.Body = &wholeBody{ReadCloser: resp.Body, want: resp.ContentLength, check: newJSONCheck(), done: func(whole bool) {
		if whole {
			o.seen(req, resp.StatusCode)
		} else {
			o.seen(req, 0)
		}
	}}
	return resp, nil
}

// wholeBody is a response body that tells done, once, whether it was read
// whole: to io.EOF, or to its Content-Length (the client stops there),
// and what was read is JSON. A body closed early, or cut, is not whole.
type wholeBody struct {
	io.ReadCloser
	want  int64 // the Content-Length, or -1
	read  int64
	check *jsonCheck
	done  func(whole bool)
	told  bool
}

func (b *wholeBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if !b.told {
		b.check.Write(p[:n])
	}
	switch {
	case err == io.EOF || (b.want >= 0 && b.read == b.want):
		if !b.told {
			b.tell(b.check.result())
		}
	case err != nil:
		b.tell(false)
	}
	return n, err
}

func (b *wholeBody) Close() error {
	b.tell(false)
	return b.ReadCloser.Close()
}

// tell calls done the first time only, and stops the check.
func (b *wholeBody) tell(whole bool) {
	if !b.told {
		b.told = true
		b.check.abandon()
		b.done(whole)
	}
}

// pageOf is the page a directory request asks for (1 when it names none).
func pageOf(req *http.Request) int {
	if n, err := strconv.Atoi(req.URL.Query().Get("page")); err == nil {
		return n
	}
	return 1
}

// pollFailure is the text of a failed poll's error, said after the name
// of what was polled: without the index of the package among those
// watched (the name says which), and without the blank that ends the
// service's body.
func pollFailure(err error) string {
	return strings.TrimSpace(message.ItemCause(err).Error())
}
