package gamedatatest

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gamedata-go/gamedata/internal/har"
	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// RecordingOption adds to the scrub rules of a recording opened by
// OpenRecording. A bad name is an error of OpenRecording.
type RecordingOption func(*scrubRules) error

// ScrubHeaders removes the named request and response headers, beside the
// ones a recording removes by default; a name ending in "*" removes every
// header it begins ("X-Amz-*"). Their values are secrets: where the
// service echoes one, in a body or another header, it is replaced by
// REDACTED.
func ScrubHeaders(names ...string) RecordingOption {
	return nameOption("ScrubHeaders", names, func(s *scrubRules, n string) {
		s.headers = append(s.headers, canonicalPattern(n))
		s.secretHeaders = append(s.secretHeaders, canonicalPattern(n))
	})
}

// ScrubQuery removes the named query parameters (in any case), beside
// the ones a recording removes by default, from the URLs it stores and
// from match keys. Their values are secrets, as with ScrubHeaders.
func ScrubQuery(names ...string) RecordingOption {
	return nameOption("ScrubQuery", names, func(s *scrubRules, n string) {
		s.query = append(s.query, strings.ToLower(n))
	})
}

// AllowHeaders lets the named headers through although their names look
// like credentials (a name that holds "token", "key", "auth", "secret",
// "session" and the like), for a header that is not one. Without it,
// saving a recording that holds one fails.
func AllowHeaders(names ...string) RecordingOption {
	return nameOption("AllowHeaders", names, func(s *scrubRules, n string) {
		s.allowHeaders = append(s.allowHeaders, http.CanonicalHeaderKey(n))
	})
}

// AllowQuery lets the named query parameters through although their names
// look like credentials, as AllowHeaders does for headers.
func AllowQuery(names ...string) RecordingOption {
	return nameOption("AllowQuery", names, func(s *scrubRules, n string) {
		s.allowQuery = append(s.allowQuery, strings.ToLower(n))
	})
}

// nameOption is the option named option that adds each of names to the
// rules with add, once checkName accepts it.
func nameOption(option string, names []string, add func(s *scrubRules, name string)) RecordingOption {
	return func(s *scrubRules) error {
		for _, n := range names {
			if err := checkName(option, strings.TrimSuffix(n, "*")); err != nil {
				return err
			}
			add(s, n)
		}
		return nil
	}
}

// checkName refuses an empty name, or one with a control character or a
// space, which no header or parameter of the service has.
func checkName(option, name string) error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return fmt.Errorf("gamedatatest: %s: bad name %q: give a header or parameter name", option, sanitize.String(name))
	}
	return nil
}

func canonicalPattern(n string) string {
	if prefix, ok := strings.CutSuffix(n, "*"); ok {
		return http.CanonicalHeaderKey(prefix) + "*"
	}
	return http.CanonicalHeaderKey(n)
}

// scrubRules are what a recording removes before it keeps anything, and
// which names that look like credentials it lets through.
type scrubRules struct {
	headers       []string // canonical; a name ending in "*" is a prefix
	secretHeaders []string // of headers, those whose values are secrets
	query         []string // lower case
	allowHeaders  []string // canonical
	allowQuery    []string // lower case
}

// The default rules. Credentials go, and with them what changes from one
// run to the next or says how the bytes travelled rather than what they
// are (Date, Via, the lengths and encodings of a body stored decoded, the
// hop-by-hop headers of a connection), so that two recordings of one run
// are the same file. ETag, Last-Modified, Cache-Control, Content-Type,
// Retry-After and Location stay: replay answers with them.
var (
	defaultScrubHeaders = []string{
		"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "User-Agent", "Date", "Via", "X-Forwarded-*",
		"Content-Length", "Content-Encoding",
		"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade",
	}
	defaultSecretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "User-Agent"}
	defaultScrubQuery    = []string{"key", "token", "api_key", "access_token"}
)

func newScrubRules(opts []RecordingOption) (scrubRules, error) {
	s := scrubRules{
		headers:       slices.Clone(defaultScrubHeaders),
		secretHeaders: slices.Clone(defaultSecretHeaders),
		query:         slices.Clone(defaultScrubQuery),
		allowHeaders:  []string{},
		allowQuery:    []string{},
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&s); err != nil {
			return scrubRules{}, err
		}
	}
	for _, list := range []*[]string{&s.headers, &s.secretHeaders, &s.query, &s.allowHeaders, &s.allowQuery} {
		slices.Sort(*list)
		*list = slices.Compact(*list)
	}
	return s, nil
}

// har is the rules as the log of a recording states them.
func (s *scrubRules) har() har.Scrub {
	return har.Scrub{RemovedHeaders: s.headers, RemovedQuery: s.query, AllowedHeaders: s.allowHeaders, AllowedQuery: s.allowQuery}
}

// inList reports whether the canonical header name is in list, which may
// hold prefixes.
func inList(list []string, name string) bool {
	return slices.ContainsFunc(list, func(p string) bool {
		prefix, ok := strings.CutSuffix(p, "*")
		return p == name || ok && strings.HasPrefix(name, prefix)
	})
}

func (s *scrubRules) removesHeader(name string) bool {
	return inList(s.headers, http.CanonicalHeaderKey(name))
}

func (s *scrubRules) removesQuery(name string) bool {
	return slices.Contains(s.query, strings.ToLower(name))
}

// hidesQuery reports whether the value of a parameter that is kept must
// not be shown: its name looks like a credential, and the caller did not
// say it is none.
func (s *scrubRules) hidesQuery(name string) bool {
	return credentialLike(name) && !slices.Contains(s.allowQuery, strings.ToLower(name))
}

// header is h without the headers the rules remove.
func (s *scrubRules) header(h http.Header) http.Header {
	out := http.Header{}
	for name, values := range h {
		if !s.removesHeader(name) {
			out[http.CanonicalHeaderKey(name)] = slices.Clone(values)
		}
	}
	return out
}

// rawQuery is rawQuery without the parameters the rules remove, the
// others as they were sent, in their order.
func (s *scrubRules) rawQuery(rawQuery string) string {
	var kept []string
	for pair := range strings.SplitSeq(rawQuery, "&") {
		name, _, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); pair == "" || err == nil && s.removesQuery(n) {
			continue
		}
		kept = append(kept, pair)
	}
	return strings.Join(kept, "&")
}

// secrets are the values an exchange must not store anywhere: those of
// the removed request and response headers that carry credentials or
// name the caller (User-Agent), and of
// the removed query parameters, whole, after an authentication scheme,
// and each cookie's; each as sent and escaped as in a URL.
func (s *scrubRules) secrets(reqHeader http.Header, rawQuery string, respHeader http.Header) [][]byte {
	var values []string
	for _, h := range []http.Header{reqHeader, respHeader} {
		for name, vs := range h {
			if inList(s.secretHeaders, http.CanonicalHeaderKey(name)) {
				for _, v := range vs {
					values = append(values, secretParts(v)...)
				}
			}
		}
	}
	// Split as rawQuery splits it: url.ParseQuery skips a pair it refuses
	// (one with a ";"), which rawQuery removes all the same.
	for _, p := range har.Query(rawQuery) {
		if s.removesQuery(p.Name) {
			values = append(values, p.Value)
		}
	}
	var out [][]byte
	for _, v := range values {
		// A value this short would blot out ordinary text; the whole
		// header or parameter it came from is gone all the same.
		if len(v) < minSecret {
			continue
		}
		out = append(out, []byte(v), []byte(url.QueryEscape(v)), []byte(url.PathEscape(v)))
	}
	// Longest first: a secret that begins a longer one, of another header
	// or parameter, replaced before it would leave the longer one's tail.
	slices.SortStableFunc(out, func(a, b []byte) int { return len(b) - len(a) })
	return out
}

// minSecret is the shortest value redacted where the service echoes it.
const minSecret = 4

// secretParts are the secrets of one header value: the whole value, its
// credentials after a scheme ("Bearer x"), and each cookie's value.
func secretParts(v string) []string {
	parts := []string{v}
	if _, cred, ok := strings.Cut(v, " "); ok {
		parts = append(parts, strings.TrimSpace(cred))
	}
	for c := range strings.SplitSeq(v, ";") {
		if _, val, ok := strings.Cut(c, "="); ok {
			parts = append(parts, strings.Trim(strings.TrimSpace(val), `"`))
		}
	}
	return parts
}

// redact replaces every secret in b with REDACTED, each in its turn:
// secrets lists them longest first.
func redact(b []byte, secrets [][]byte) []byte {
	for _, s := range secrets {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(redacted))
		}
	}
	return b
}

// redactHeader is h with every secret in its values replaced.
func redactHeader(h http.Header, secrets [][]byte) {
	for name, vs := range h {
		for i, v := range vs {
			h[name][i] = string(redact([]byte(v), secrets))
		}
	}
}

// credentialWords are the parts of a name that make it look like a
// credential's, in lower case and without separators; a whole word of
// credentialNames does too.
var (
	credentialWords = []string{"auth", "token", "secret", "passw", "cookie", "session", "sessid", "credential", "apikey", "signature", "privatekey", "accesskey"}
	credentialNames = []string{"key", "sig", "pw", "pwd", "pass", "jwt", "sid"}
)

// credentialLike reports whether a header or parameter name looks like
// one that carries a credential: "X-Api-Key", "access_token",
// "Authorization", "sessionid", "sig".
func credentialLike(name string) bool {
	lower := strings.ToLower(name)
	words := strings.FieldsFunc(lower, func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') })
	joined := strings.Join(words, "")
	return slices.ContainsFunc(credentialWords, func(w string) bool { return strings.Contains(joined, w) }) ||
		slices.ContainsFunc(words, func(w string) bool { return slices.Contains(credentialNames, w) })
}

// CredentialError is the refusal of a recording that holds a header or a
// query parameter whose name looks like a credential's and that its
// options do not allow: Save's, before anything is written, and
// OpenRecording's, of a file that holds one. It names the name, never its
// value.
type CredentialError struct {
	// Request is the method and path of the exchange that holds it.
	Request string
	// Where is "request header", "response header" or "query parameter".
	Where string
	// Name is the name as the exchange holds it: text from the service or
	// the file, to sanitize before it reaches a terminal (Error does).
	Name string
	// InFile is set when the file held it, rather than a request or an
	// answer being recorded.
	InFile bool
}

// Error says what holds the name and what to do: scrub it or allow it
// when saving, remove it or allow it when the file holds it.
func (e *CredentialError) Error() string {
	option, allow := "ScrubHeaders", "AllowHeaders"
	if e.Where == "query parameter" {
		option, allow = "ScrubQuery", "AllowQuery"
	}
	name := sanitize.String(e.Name)
	fix := fmt.Sprintf("remove it with gamedatatest.%s(%q)", option, name)
	if e.InFile {
		fix = "remove it from the file"
	}
	return fmt.Sprintf("%s: the %s %q looks like a credential: %s, or keep it with gamedatatest.%s(%q) if it is none",
		sanitize.String(e.Request), e.Where, name, fix, allow, name)
}
