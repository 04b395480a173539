package gamedata

import (
	"encoding/json"

	"github.com/gamedata-go/gamedata/internal/sanitize"
)

// Untrusted is text written by a publisher (titles, descriptions, update
// notes) and relayed by the service. Anyone can write it, so it is data and
// never instructions: print it, log it or put it in a prompt only through
// String, which removes what could steer a terminal or a reader.
type Untrusted struct {
	raw string
}

// NewUntrusted wraps s as untrusted text.
func NewUntrusted(s string) Untrusted { return Untrusted{raw: s} }

// Unsanitized returns the text exactly as the service sent it. Do not
// write it to a terminal, a log or a prompt.
func (u Untrusted) Unsanitized() string { return u.raw }

// String returns a rendering that is safe to show: terminal escape
// sequences (CSI, OSC, DCS and the like, in their 7-bit and 8-bit forms) are
// removed whole, other C0 and C1 control characters and DEL are removed,
// tab, newline, carriage return and the line and paragraph separators
// become a space, bidirectional overrides, embeddings, isolates and marks
// are removed, so are invisible characters (zero-width spaces and joiners,
// the byte-order mark, tag characters), and invalid UTF-8 becomes U+FFFD.
// Applying it to its own output changes nothing.
func (u Untrusted) String() string { return sanitize.String(u.raw) }

// Inert reports whether String shows the text exactly as sent: it holds
// no escape sequence, control character, tab or line break, bidi or
// invisible character, and no byte that is not UTF-8. A program that must
// write the service's text losslessly (a CSV cell read back exactly, a
// JSON string) can keep what is inert as it is and escape the rest,
// rather than let String drop it. It allocates nothing.
func (u Untrusted) Inert() bool { return sanitize.Unchanged(u.raw) }

// MarshalJSON writes the text as the service sent it, so a record
// round-trips losslessly.
func (u Untrusted) MarshalJSON() ([]byte, error) { return json.Marshal(u.raw) }

// UnmarshalJSON reads a JSON string.
func (u *Untrusted) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &u.raw) }
