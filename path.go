package gamedata

// checkSegments refuses, before any request is sent, identifiers that
// cannot be one path segment: an empty one, and the dot segments "." and
// "..", which url.PathEscape leaves as they are and which a server or proxy
// would resolve to another path.
func checkSegments(names []string, values ...string) error {
	for i, v := range values {
		switch v {
		case "":
			return invalidArgument("empty %s", names[i])
		case ".", "..":
			return invalidArgument("%s %q is a dot segment, not an identifier", names[i], v)
		}
	}
	return nil
}
