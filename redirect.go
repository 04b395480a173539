package gamedata

import (
	"fmt"
	"net/http"

	"github.com/gamedata-go/gamedata/internal/attempt"
)

// redirectPolicy follows a redirect only within the origin of the first
// request, and never from one directory page to another. It runs before
// the redirected request is sent, so a refused target is never contacted.
// The user's own CheckRedirect, if any, is consulted after these rules.
func redirectPolicy(user func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if len(via) >= 10 {
			return ErrTooManyRedirects
		}
		if attempt.Origin(req.URL) != attempt.Origin(first.URL) {
			return fmt.Errorf("%w: %s to %s", ErrRedirectRefused, attempt.Origin(first.URL), attempt.Origin(req.URL))
		}
		if asked := first.URL.Query(); asked.Has("page") && req.URL.Query().Get("page") != asked.Get("page") {
			return &pageRedirectError{page: asked.Get("page"), target: req.URL.Redacted()}
		}
		if user != nil {
			return user(req, via)
		}
		return nil
	}
}

// pageRedirectError is a directory page redirected to another page. It is
// ErrPageOutOfRange; a walk tells it apart from a page that served the
// wrong number, since only a redirect says the directory ends earlier.
type pageRedirectError struct{ page, target string }

func (e *pageRedirectError) Error() string {
	return fmt.Sprintf("%v: page %s was redirected to %s", ErrPageOutOfRange, e.page, e.target)
}

func (e *pageRedirectError) Is(target error) bool { return target == ErrPageOutOfRange }
