package message

import (
	"errors"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata"
)

// Explained is an error said in words that tell what to do, in place of
// the request's own text; the error it explains stays in the chain.
type Explained struct {
	Msg string
	Err error
}

func (e *Explained) Error() string { return e.Msg }

func (e *Explained) Unwrap() error { return e.Err }

// Explain turns the failures a person meets first into one line that
// says what to do: a record the service does not have (404), a base URL
// that is not the service's, and a service that cannot be reached at
// base (connection refused, a name that does not resolve). Any other
// error is returned as it is. Every command's error passes here, once,
// on its way to stderr.
func Explain(err error, base string) error {
	if err == nil {
		return nil
	}
	var apiErr *gamedata.APIError
	if errors.As(err, &apiErr) && errors.Is(err, gamedata.ErrNotFound) {
		if msg, ok := wrongBase(apiErr.URL, base); ok {
			return &Explained{Msg: msg, Err: err}
		}
		if msg, ok := notFound(apiErr.URL); ok {
			return &Explained{Msg: msg, Err: err}
		}
	}
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial") {
		var cause error = dns
		if dns == nil {
			cause = op
		}
		return &Explained{Msg: "could not reach the service at " + serviceURL(err, base) + ": " + cause.Error() +
			"; check --base-url and the network", Err: err}
	}
	return err
}

// recordPath is a path of the service that reads one record: its fixed
// segments, how many name the record, and how a message speaks of it.
type recordPath struct {
	fixed  []string
	names  int
	what   string // "package", "analytics for package", …
	check  string // what to check
	finder string // the command that finds it
}

var recordPaths = []recordPath{
	{[]string{"packages"}, 2, "package", "check the kind and ident", "gamedata search"},
	{[]string{"servers"}, 1, "server", "check the id", "gamedata search"},
	{[]string{"organizations"}, 1, "organization", "check the ident", "gamedata search"},
	{[]string{"analytics", "packages"}, 2, "analytics for package", "check the kind and ident", "gamedata analytics search"},
	{[]string{"analytics", "organizations"}, 1, "analytics for organization", "check the ident", "gamedata analytics search"},
}

// wrongBase says that a 404 for rawURL is the base URL's fault, not a
// record's: the base ends in /api, so every path is /api/api/…, or the
// request reads no one record but a directory's first page, a search or
// the activity history, which a service always has; false otherwise (a
// later page may be out of range).
func wrongBase(rawURL, base string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false
	}
	if strings.Contains(u.EscapedPath(), "/api/api/") {
		return "--base-url should be the service's root (it ends in /api, and every path starts /api/): try --base-url " + serviceRoot(u, base), true
	}
	seg, ok := apiSegments(rawURL)
	if page, _ := strconv.Atoi(u.Query().Get("page")); !ok || isRecord(seg) || page > 1 {
		return "", false
	}
	if base == "" {
		base = u.Scheme + "://" + u.Host
	}
	return "the service at " + Safe(base) + " has no " + Safe("/api/"+strings.Join(seg, "/")) + " (404), which every one of its calls uses; " +
		"check --base-url: it should be the service's root, the part before /api/", true
}

// serviceRoot is what --base-url should have been for a request to u that
// went to /api/api/…: base without its /api, or u's up to it.
func serviceRoot(u *url.URL, base string) string {
	if base != "" {
		return Safe(strings.TrimSuffix(strings.TrimRight(base, "/"), "/api"))
	}
	path := u.EscapedPath()
	return Safe(u.Scheme + "://" + u.Host + path[:strings.Index(path, "/api/api/")])
}

// isRecord reports whether the path segments after /api/ read one record.
func isRecord(seg []string) bool {
	for _, r := range recordPaths {
		if len(seg) == len(r.fixed)+r.names && slices.Equal(seg[:len(r.fixed)], r.fixed) {
			return true
		}
	}
	return false
}

// notFound says that the record the request for rawURL reads is not on
// the service, and how to find it; false for a request that reads no one
// record.
func notFound(rawURL string) (string, bool) {
	seg, ok := apiSegments(rawURL)
	if !ok {
		return "", false
	}
	for _, r := range recordPaths {
		if len(seg) != len(r.fixed)+r.names || !slices.Equal(seg[:len(r.fixed)], r.fixed) {
			continue
		}
		name := seg[len(r.fixed):]
		return "no " + r.what + " " + Safe(strings.Join(name, "/")) + " on the service (404); " +
			r.check + ", or find it with: " + r.finder + " " + shellWord(name[len(name)-1]), true
	}
	return "", false
}

// apiSegments are the unescaped segments of rawURL's path after its
// "/api/" (a base URL may have a path of its own before it).
func apiSegments(rawURL string) ([]string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false
	}
	path := u.EscapedPath()
	i := strings.LastIndex(path, "/api/")
	if i < 0 {
		return nil, false
	}
	seg := strings.Split(path[i+len("/api/"):], "/")
	for k, s := range seg {
		if seg[k], err = url.PathUnescape(s); err != nil {
			return nil, false
		}
	}
	return seg, true
}

// serviceURL is the service's address for a message: base when the
// command was given one, or else the scheme and host of the request
// that failed.
func serviceURL(err error, base string) string {
	if base != "" {
		return Safe(base)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return Safe(u.Scheme + "://" + u.Host)
		}
	}
	return "its base URL"
}

// plainWord is a word a shell reads as it is.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9._/:@%+=,-]+$`)

// shellWord is s, sanitized, as one shell word: quoted when a shell would
// read it otherwise (spaces, $, quotes, globs).
func shellWord(s string) string {
	s = Safe(s)
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
