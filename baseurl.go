package gamedata

import (
	"net/url"
	"strings"
)

// parseBaseURL reads the base URL NewClient is given: an absolute http or
// https URL, with no credentials, query or fragment, whose path is a
// prefix every endpoint's path is put under.
func parseBaseURL(raw string) (*url.URL, error) {
	const want = "want an absolute http or https URL, such as https://host/"
	if raw == "" {
		return nil, invalidArgument("empty base URL: %s", want)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil, u.Scheme != "http" && u.Scheme != "https", u.Opaque != "":
		return nil, invalidArgument("base URL %q: %s", withoutSecrets(raw), want)
	case u.Host == "":
		return nil, invalidArgument("base URL %q has no host: %s", withoutSecrets(raw), want)
	case u.User != nil:
		return nil, invalidArgument("base URL %q carries credentials; the service needs none", withoutSecrets(raw))
	case u.RawQuery != "" || u.Fragment != "":
		return nil, invalidArgument("base URL %q has a query or fragment", withoutSecrets(raw))
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// withoutSecrets is a base URL as an error may say it. A refused base URL
// may be refused for the very secret it carries (a password in its user
// information, a token in its query or fragment), and an error is read
// where the user's secrets must not be: so none of those parts is said,
// whether or not the URL parses. What is left names the URL enough to
// find the flag or variable it came from.
func withoutSecrets(raw string) string {
	shown, _, cut := strings.Cut(raw, "#")
	shown, _, query := strings.Cut(shown, "?")
	authority := 0
	if i := strings.Index(shown, "://"); i >= 0 {
		authority = i + len("://")
	}
	if at := strings.LastIndex(shown, "@"); at >= authority {
		shown = shown[:authority] + "…" + shown[at:]
	}
	if query || cut {
		shown += "?…"
	}
	return shown
}
