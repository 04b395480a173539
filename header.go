package gamedata

// checkHeader refuses a request header that net/http would refuse to
// send: a name that is not an RFC 9110 token (§5.6.2), a value with a
// control character other than tab (CR, LF and NUL among them). It is
// checked when an option is given, because net/http's refusal comes only
// at the first attempt, as an error the retries would take for a network
// failure. The value is never quoted: it may be a credential.
func checkHeader(option, name, value string) error {
	if name == "" {
		return invalidArgument("%s: empty header name", option)
	}
	for i := 0; i < len(name); i++ {
		if !isTokenByte(name[i]) {
			return invalidArgument("%s: header name %q has %q at byte %d: want letters, digits and !#$%%&'*+-.^_`|~", option, name, name[i], i)
		}
	}
	for i := 0; i < len(value); i++ {
		if b := value[i]; b < ' ' && b != '\t' || b == 0x7f {
			return invalidArgument("%s: the value of %s has a control character at byte %d (%q), which cannot be sent in a header", option, name, i, b)
		}
	}
	return nil
}

// isTokenByte tells the bytes of an RFC 9110 token: the visible ASCII
// characters but the delimiters.
func isTokenByte(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	switch b {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}
