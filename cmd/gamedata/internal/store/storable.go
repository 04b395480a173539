package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxKeyBytes bounds an entry's key (kind, ident and id together) and
// each member name: PostgreSQL's btree indexes refuse a row over about
// 2,700 bytes, and a series row's key holds both. SQLite would store
// more; both databases refuse alike, so that they hold the same rows.
const maxKeyBytes = 1000

// Refused is an entry SaveEntries did not store, and why: the caller
// records it as a failure naming it.
type Refused struct {
	Key
	Err error
}

// storable says why the database cannot keep e as sent, or nil: a key or
// member name that is not text both databases hold (a NUL byte, invalid
// UTF-8: made storable, it would merge with another entry's or member's),
// or one longer than an index holds.
func storable(e Entry) error {
	if len(e.Kind)+len(e.Ident)+len(e.ID) > maxKeyBytes {
		return fmt.Errorf("its key is %d bytes, more than the %d the database's indexes hold; not stored", len(e.Kind)+len(e.Ident)+len(e.ID), maxKeyBytes)
	}
	for _, part := range []struct{ what, s string }{{"kind", e.Kind}, {"ident", e.Ident}, {"id", e.ID}} {
		if !isText(part.s) {
			return fmt.Errorf("its %s holds a NUL byte or invalid UTF-8, which the database cannot keep apart from other text; not stored", part.what)
		}
	}
	for name := range e.Values {
		switch {
		case len(name) > maxKeyBytes:
			return fmt.Errorf("its member %s is %d bytes long, more than the %d the database's indexes hold; not stored", clip(strconv.Quote(name)), len(name), maxKeyBytes)
		case !isText(name):
			return fmt.Errorf("its member %s holds a NUL byte or invalid UTF-8, which the database cannot keep apart from other names; not stored", clip(strconv.Quote(name)))
		}
	}
	return nil
}

// isText reports whether s is text both databases keep as it is.
func isText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// clipBytes is how much of a long name a message or a failure keeps.
const clipBytes = 200

// clip is s, or, when s is longer than a message should quote, its
// beginning, its length and a digest that tells it from any other.
func clip(s string) string {
	if len(s) <= clipBytes {
		return s
	}
	cut := clipBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%s… (%d bytes, sha256 %s)", s[:cut], len(s), hex.EncodeToString(sum[:8]))
}
