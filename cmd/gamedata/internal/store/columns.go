package store

import (
	"strings"
	"unicode/utf8"
)

// The values that go into columns of either database, spelled alike.

// clean makes s storable as text in both databases: PostgreSQL's text
// holds neither NUL nor invalid UTF-8, so each becomes U+FFFD, in SQLite
// too, so that both keep the same bytes.
func clean(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "\uFFFD")
}

// cleanPtr is clean for a nullable text.
func cleanPtr(s *string) any {
	if s == nil {
		return nil
	}
	return clean(*s)
}

// b2i is a flag as the schema stores it: 0 or 1, in both databases.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
