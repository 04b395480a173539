package gamedata

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
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
		if origin(req.URL) != origin(first.URL) {
			return fmt.Errorf("%w: %s to %s", ErrRedirectRefused, origin(first.URL), origin(req.URL))
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

// origin returns scheme://host:port with the default port made explicit,
// so https://h and https://h:443 are one origin.
func origin(u *url.URL) string {
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

// pageRedirectError is a directory page redirected to another page. It is
// ErrPageOutOfRange; a walk tells it apart from a page that served the
// wrong number, since only a redirect says the directory ends earlier.
type pageRedirectError struct{ page, target string }

func (e *pageRedirectError) Error() string {
	return fmt.Sprintf("%v: page %s was redirected to %s", ErrPageOutOfRange, e.page, e.target)
}

func (e *pageRedirectError) Is(target error) bool { return target == ErrPageOutOfRange }
