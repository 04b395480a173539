package main

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
)

// apiRequest is what api's PATH and -f ask for, checked before anything
// is sent.
type apiRequest struct {
	// Path is PATH's path, escaped, without its query: what messages
	// name.
	Path  string
	Route *apiRoute
	// Args are the values of the route's parameters, unescaped.
	Args  []string
	Query url.Values
}

// parseAPIRequest reads PATH and the -f fields into the request they
// ask for, or refuses them as bad usage, naming the argument: a path
// outside /api/ and /openapi.json, one no endpoint has, a field without
// "=", and a query the SDK's options cannot send as given.
func parseAPIRequest(path string, fields []string) (apiRequest, error) {
	u, err := url.Parse(path)
	if err != nil {
		return apiRequest{}, message.Usagef("api %s: %v; give the path as in a URL, a %% in an identifier as %%25", path, cause(err))
	}
	r := apiRequest{Path: u.EscapedPath()}
	switch {
	case u.Scheme != "" || u.Host != "":
		return apiRequest{}, message.Usagef("api %s: give the path alone, such as /api/dashboard; the service's address is --base-url", path)
	case strings.Contains(path, "#"):
		return apiRequest{}, message.Usagef("api %s: a # starts a fragment, which is never sent; in an identifier, escape it as %%23", path)
	case r.Path != "/openapi.json" && !strings.HasPrefix(r.Path, "/api/"):
		return apiRequest{}, message.Usagef("api %s: want a path under /api/, or /openapi.json", path)
	}
	if r.Query, err = url.ParseQuery(u.RawQuery); err != nil {
		return apiRequest{}, message.Usagef("api %s: its query: %v", path, err)
	}
	for _, f := range fields {
		name, value, ok := strings.Cut(f, "=")
		if !ok || name == "" {
			return apiRequest{}, message.Usagef("api -f %q: want key=value, such as -f kind=game", f)
		}
		r.Query.Add(name, value)
	}
	if r.Route, r.Args, err = matchRoute(r.Path); err != nil {
		return apiRequest{}, err
	}
	if err := nameable("api "+r.Path, r.Args...); err != nil {
		return apiRequest{}, err
	}
	return r, checkOwn(r.Path, r.Query, r.Route.own)
}

// cause is what url.Parse found wrong, without the input it quotes.
func cause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// matchRoute finds the route of path, a URL's escaped path that
// url.Parse read, and the values of its parameters, unescaped.
func matchRoute(path string) (*apiRoute, []string, error) {
	seg := strings.Split(path, "/")
	for i := range apiRoutes {
		escaped, ok := apiRoutes[i].match(seg)
		if !ok {
			continue
		}
		var args []string
		for _, a := range escaped {
			arg, _ := url.PathUnescape(a) // url.Parse has checked path's escapes
			args = append(args, arg)
		}
		return &apiRoutes[i], args, nil
	}
	return nil, nil, message.Usagef("api %s: no endpoint of the service has this path; \"gamedata help api\" lists those there are", path)
}

// checkOwn refuses, in the query q of path, a parameter of own (those the
// SDK's options send from a typed field) that they cannot send as given:
// one given twice (but filter, which repeats), an empty one, and a page
// or page size the service does not serve.
func checkOwn(path string, q url.Values, own []string) error {
	for _, name := range own {
		values := q[name]
		switch {
		case len(values) == 0 || name == "filter":
			continue
		case len(values) > 1:
			return message.Usagef("api %s: %s is given %d times; give it once", path, name, len(values))
		case values[0] == "":
			return message.Usagef("api %s: %s is empty; give it a value, or leave it out", path, name)
		}
		n, err := strconv.Atoi(values[0])
		switch {
		case name == "page" && (err != nil || n < 1):
			return message.Usagef("api %s: page=%s: want a whole number, 1 or more", path, values[0])
		case name == "pageSize" && (err != nil || n < 1 || n > maxPageSize):
			return message.Usagef("api %s: pageSize=%s: want a whole number from 1 to %d", path, values[0], maxPageSize)
		}
	}
	return nil
}

// isDirectory reports whether the request reads a directory's page,
// which --paginate walks.
func (r apiRequest) isDirectory() bool { return r.Route.walk != nil }
