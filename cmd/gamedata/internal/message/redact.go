package message

import (
	"regexp"
	"strings"
)

// urlInText matches what reads as a URL in a message: a scheme, "://" and
// what follows up to a space, a quote or an angle bracket, whether or not
// it parses (a URL that does not parse is the one a message quotes raw).
var urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]*`)

// redacted stands for what RedactURLs removes.
const redacted = "xxxxx"

// RedactURLs returns s with the userinfo of every URL in it, the value
// of every query parameter and the fragment replaced by xxxxx, wherever
// the URL came from (a flag, the environment, an error of the library or
// of net/http): a message that quotes a URL the user gave never carries
// a password or a token that came in it. It errs on the side of
// removing: an "@" anywhere before the query ends the userinfo.
func RedactURLs(s string) string {
	return urlInText.ReplaceAllStringFunc(s, redactURL)
}

func redactURL(u string) string {
	scheme, rest, _ := strings.Cut(u, "://")
	rest, fragment, hasFragment := strings.Cut(rest, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		rest = redacted + rest[at:]
	}
	var b strings.Builder
	b.WriteString(scheme + "://" + rest)
	if hasQuery {
		b.WriteByte('?')
		for i, param := range strings.Split(query, "&") {
			if i > 0 {
				b.WriteByte('&')
			}
			if key, _, ok := strings.Cut(param, "="); ok {
				b.WriteString(key + "=")
			}
			b.WriteString(redacted)
		}
	}
	if hasFragment && fragment != "" {
		b.WriteString("#" + redacted)
	}
	return b.String()
}
