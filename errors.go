package gamedata

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

var (
	// ErrInvalidArgument matches, with errors.Is, every refusal made before
	// any request is sent: an empty or dot-segment identifier, a page or
	// page size out of range, a bad option value given to NewClient, a bad
	// base URL, a nil context. The message names the argument.
	ErrInvalidArgument = errors.New("gamedata: invalid argument")

	// ErrNotFound matches, with errors.Is, an *APIError for status 404: no
	// such package, server or organization.
	ErrNotFound = errors.New("gamedata: not found")

	// ErrRateLimited matches, with errors.Is, an *APIError for status 429
	// that was still refused after the retries the client allows, or whose
	// Retry-After was beyond the backoff maximum.
	ErrRateLimited = errors.New("gamedata: rate limited")

	// ErrPageOutOfRange reports that the service redirected a directory
	// page request to another page, or served another page than the one
	// asked for. Another page's items are never returned as the page asked
	// for.
	ErrPageOutOfRange = errors.New("gamedata: page out of range")

	// ErrPageNotAdvancing reports that a walk got only items it had already
	// yielded, page after page, while hasNext stayed true: the service
	// ignores the page parameter, and following hasNext would loop forever.
	ErrPageNotAdvancing = errors.New("gamedata: directory page did not advance")

	// ErrWalkUnbounded reports, wrapped in the *PageError of the page at
	// fault, a directory walk that ran past a bound, rather than follow
	// hasNext for ever: a page holding more entries than the page size
	// asked for (or than the contract's 100), a walk more than one page
	// past the pagination.totalPages or pagination.total the service sent,
	// or one past ListOptions.MaxItems. None of that page's entries was
	// yielded, so a later walk can resume at it.
	ErrWalkUnbounded = errors.New("gamedata: directory walk out of bounds")

	// ErrUnsafeCacheDir reports a directory NewDiskCache refuses because
	// someone other than its user could control it: a symbolic link, or
	// on Unix a directory of another user or one its group or others may
	// write. The message says which, and what to do.
	ErrUnsafeCacheDir = errors.New("gamedata: cache directory refused")

	// ErrRedirectRefused reports a redirect to another origin (scheme, host
	// or port), which the client never follows, https-to-http above all.
	ErrRedirectRefused = errors.New("gamedata: redirect to another origin refused")

	// ErrTooManyRedirects reports a request that was redirected 10 times
	// without an answer, as a redirect loop is.
	ErrTooManyRedirects = errors.New("gamedata: stopped after 10 redirects")

	// ErrResponseTooLarge reports a body over the limit of
	// WithMaxResponseBytes. It is never decoded in part.
	ErrResponseTooLarge = errors.New("gamedata: response body too large")
)

// invalidArgument is a refusal made before any request is sent: its
// message says what was wrong, and it matches ErrInvalidArgument.
func invalidArgument(format string, args ...any) error {
	return &argumentError{msg: fmt.Sprintf(format, args...)}
}

type argumentError struct{ msg string }

func (e *argumentError) Error() string        { return "gamedata: " + e.msg }
func (e *argumentError) Is(target error) bool { return target == ErrInvalidArgument }

// maxErrorBody bounds the body an *APIError keeps: enough for any error
// document, not enough to hold a large HTML page in memory.
const maxErrorBody = 64 << 10

// APIError is the error for a response whose status is not 2xx, after all
// retries. Use errors.As to read it; errors.Is matches ErrNotFound for 404
// and ErrRateLimited for 429.
type APIError struct {
	// StatusCode is the HTTP status of the last response.
	StatusCode int
	// Method and URL are those of the request.
	Method, URL string
	// Attempts is how many attempts were made, retries included.
	Attempts int
	// Body holds the start of the response body, at most 64 KiB. It is
	// whatever the service sent and is untrusted.
	Body []byte
	// RetryAfter is the wait the service asked for with Retry-After, or 0.
	// When it is beyond the backoff maximum the client fails at once
	// instead of waiting, and this says how long the service wants.
	RetryAfter time.Duration
	// Response is the failed call's Response: the last response's status
	// and header, the attempts, the time the call took.
	Response Response
}

// Error describes the request, the status, any Retry-After and the start
// of the body.
func (e *APIError) Error() string {
	msg := fmt.Sprintf("gamedata: %s %s", e.Method, e.URL)
	if e.Attempts > 1 {
		msg += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	msg += fmt.Sprintf(": %d", e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		msg += " " + text
	}
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	// A body of white space, or of what the sanitizer removes, says
	// nothing: the message then ends with the status.
	if body := strings.TrimSpace(jsonscan.Clip(bytes.TrimSpace(e.Body))); body != "" {
		msg += ": " + body
	}
	return sanitize.String(msg)
}

// Is matches ErrNotFound and ErrRateLimited by status code.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	}
	return false
}

// PageError wraps any failure inside a directory walk with the page that
// failed, so the walk can be resumed: set the options' Page to Page and
// call All again. Nothing before Page is lost and nothing is repeated.
type PageError struct {
	// Page is the one-based page that could not be read.
	Page int
	// Err is the underlying error.
	Err error
}

// Error names the page and the underlying error, which names the request.
func (e *PageError) Error() string {
	return sanitize.String(fmt.Sprintf("gamedata: page %d: %s", e.Page, unprefixed(e.Err)))
}

// Unwrap returns the underlying error.
func (e *PageError) Unwrap() error { return e.Err }

// ItemError is the error for one item of a GetMany: the walk yields it in
// the item's place and goes on with the next.
type ItemError struct {
	// Index is the item's index in the input.
	Index int
	// Err is the underlying error.
	Err error
}

// Error names the item's index and the underlying error, which names the
// request.
func (e *ItemError) Error() string {
	return sanitize.String(fmt.Sprintf("gamedata: item %d: %s", e.Index, unprefixed(e.Err)))
}

// Unwrap returns the underlying error.
func (e *ItemError) Unwrap() error { return e.Err }

// WatchDelayError is the error of a watch's poll that failed with a
// Retry-After: Watch yields it (inside the *PageError or *ItemError of the
// poll) to say that, and for how long, its next poll is delayed. A watch
// honours Retry-After, but never waits longer than four of its intervals,
// nor longer than an hour unless its interval is longer, so that a
// service asking for a year cannot silence it.
type WatchDelayError struct {
	// RetryAfter is the wait the service asked for.
	RetryAfter time.Duration
	// Wait is about how long the watch waits before its next poll:
	// RetryAfter within the watch's bound, or the bound, or the usual gap
	// between two polls when that is longer (less the jitter).
	Wait time.Duration
	// Err is the poll's error, an *APIError among its causes.
	Err error
}

// Error says what the service asked for, when the next poll is, and why
// the poll failed.
func (e *WatchDelayError) Error() string {
	asked := "the service asked to wait " + e.RetryAfter.String()
	if e.Wait < e.RetryAfter {
		asked += ", longer than a watch waits"
	}
	return sanitize.String(fmt.Sprintf("gamedata: %s; the next poll is in %s: %s", asked, e.Wait, unprefixed(e.Err)))
}

// Unwrap returns the poll's error.
func (e *WatchDelayError) Unwrap() error { return e.Err }

// DecodeError reports a response that does not have the documented shape.
// It names the member at fault, so no result is ever silently partial.
type DecodeError struct {
	// URL is the request's URL.
	URL string
	// Member locates the fault, such as "points[3][2]" (the fourth
	// point's third element) or "history[5].capturedAt"; it is empty when
	// the body as a whole is at fault. A name the service chose rather
	// than one the SDK looked for, such as a directory's array found by
	// its shape, is quoted with strconv.Quote, which escapes every byte
	// that could steer a terminal: `"entries"[3]`, `summary["7d"]`.
	Member string
	// Err says what was wrong.
	Err error
}

// Error names the URL, the member at fault and what was wrong.
func (e *DecodeError) Error() string {
	if e.Member == "" {
		return sanitize.String(fmt.Sprintf("gamedata: decode %s: %v", e.URL, e.Err))
	}
	return sanitize.String(fmt.Sprintf("gamedata: decode %s: %s: %v", e.URL, e.Member, e.Err))
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

// The error types of this package quote the service's bytes themselves:
// values through clip, which sanitizes, and member names the service
// chose through quotedNames or strconv.Quote. Their Error methods pass the
// whole message through sanitize as well, so that text the service chose
// and another error carries (a redirect's target, say) cannot reach a
// terminal or a log either.

// quotedNames lists member names the service chose, each quoted.
func quotedNames(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return strings.Join(quoted, ", ")
}

// unprefixed is err's message without the "gamedata: " that an error
// wrapping it already carries, so the prefix is said once.
func unprefixed(err error) string { return strings.TrimPrefix(err.Error(), "gamedata: ") }

// PanicError is what the SDK panics with, in the goroutine that iterates,
// when code of the caller's (a middleware, a hook, a Cache) panicked in a
// goroutine the SDK started: the one that fetches a walk's pages ahead
// (WithPrefetch) or a worker of GetMany. A panic there would end the
// program, out of the caller's reach; carried back, it reaches the
// caller's recover, and unrecovered it still ends the program, with the
// stack where it began.
type PanicError struct {
	// Value is what the code panicked with.
	Value any
	// Stack is the stack of the goroutine that panicked, as
	// runtime/debug.Stack writes it.
	Stack []byte
}

// Error says what the code panicked with and where.
func (e *PanicError) Error() string {
	return fmt.Sprintf("gamedata: panic in a goroutine of the SDK: %v\n\n%s", e.Value, e.Stack)
}

// Unwrap returns Value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
