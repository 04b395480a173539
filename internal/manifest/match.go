package manifest

import (
	"net/url"
	"strings"
)

// Match returns the endpoint whose path has the shape of escapedPath, a
// request's escaped path under the base URL ("/api/packages/game/a%2Fb"),
// and the values of its path parameters, unescaped, in order
// (["game", "a/b"]). Each segment is unescaped on its own, so an escaped
// "/" stays inside its parameter, and a fixed segment matches when its
// unescaped value is the same. ok is false when no endpoint has that
// shape, or a segment is empty or holds a bad escape.
func Match(escapedPath string) (e Endpoint, args []string, ok bool) {
	seg := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	for i, s := range seg {
		u, err := url.PathUnescape(s)
		if err != nil || u == "" {
			return Endpoint{}, nil, false
		}
		seg[i] = u
	}
	for _, e := range Endpoints {
		if args, ok := e.match(seg); ok {
			return e, args, true
		}
	}
	return Endpoint{}, nil, false
}

// match returns the values of e's path parameters in the unescaped
// segments seg, or false when seg does not have the shape of e's path.
func (e Endpoint) match(seg []string) ([]string, bool) {
	pattern := strings.Split(strings.TrimPrefix(e.Path, "/"), "/")
	if len(pattern) != len(seg) {
		return nil, false
	}
	var args []string
	for i, p := range pattern {
		switch {
		case isParam(p):
			args = append(args, seg[i])
		case p != seg[i]:
			return nil, false
		}
	}
	return args, true
}

// PathParams returns the names of e's path parameters, in order:
// ["kind", "ident"] for "/api/packages/{kind}/{ident}", none for
// "/api/search".
func (e Endpoint) PathParams() []string {
	var names []string
	for _, p := range strings.Split(e.Path, "/") {
		if isParam(p) {
			names = append(names, p[1:len(p)-1])
		}
	}
	return names
}

// Expand returns e's path with args, each escaped as a path segment, in
// place of its parameters, in order: the path a request for them asks.
// ok is false when the number of args is not the number of parameters.
func (e Endpoint) Expand(args ...string) (path string, ok bool) {
	return e.Join("", url.PathEscape, args)
}

// Join returns base, then e's path with args in place of its parameters,
// in order, each passed through escape when it is not nil: the path of a
// request under a base URL's path, in one allocation, since every call
// builds one. ok is false when the number of args is not the number of
// parameters.
func (e Endpoint) Join(base string, escape func(string) string, args []string) (path string, ok bool) {
	n := len(base) + len(e.Path)
	for _, a := range args {
		n += len(a)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(base)
	used := 0
	for rest := e.Path; rest != ""; {
		i := strings.IndexByte(rest[1:], '/') + 1
		if i == 0 {
			i = len(rest)
		}
		seg := rest[1:i] // rest starts with "/"
		rest = rest[i:]
		b.WriteByte('/')
		if !isParam(seg) {
			b.WriteString(seg)
			continue
		}
		if used == len(args) {
			return "", false
		}
		a := args[used]
		if escape != nil {
			a = escape(a)
		}
		b.WriteString(a)
		used++
	}
	return b.String(), used == len(args)
}

// isParam reports whether the path segment p is a parameter, "{name}".
func isParam(p string) bool {
	return len(p) > 2 && p[0] == '{' && p[len(p)-1] == '}'
}
