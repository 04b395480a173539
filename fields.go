package gamedata

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gamedata-go/gamedata/internal/iso8601"
	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// Fields keeps every member of a JSON object as the service sent it. The
// service documents few fields of its records ("not shown"), so the SDK
// types only what is documented and keeps the rest here, reachable by
// name, never dropped.
//
// The bytes are kept as json.Marshal writes them (white space between
// tokens dropped; '<', '>', '&', U+2028 and U+2029 in strings escaped):
// the same JSON, in the form that comes back from a round trip through
// encoding/json, so that a value marshalled and unmarshalled again is
// equal to the original (reflect.DeepEqual).
//
// The zero Fields holds no members. A Fields is safe for concurrent use.
type Fields struct {
	raw json.RawMessage
	// index maps names to values for an object of indexFrom bytes or
	// more, whose lookups would otherwise each read it whole (a page's
	// envelope, an activity history). A smaller object is read at each
	// lookup: most records are decoded for their typed fields alone, and
	// a map for each would cost more than decoding it. Whether a Fields
	// has an index depends on its bytes alone, so two Fields of the same
	// bytes are equal however each was made.
	index map[string]json.RawMessage
}

// indexFrom is the size from which an object's Fields keeps an index.
const indexFrom = 4 << 10

// newFields makes the Fields of raw, a validated object: as it is when it
// is canonical (see jsonscan.Scanner.Canonical), as json.Marshal writes
// it otherwise. members, when not nil, are raw's members, which spare a
// canonical object's index a pass of its own.
func newFields(raw []byte, canonical bool, members map[string]json.RawMessage) Fields {
	if !canonical {
		// raw is valid JSON: marshalling it cannot fail.
		raw, _ = json.Marshal(json.RawMessage(raw))
		members = nil
	}
	if len(raw) < indexFrom {
		return Fields{raw: raw}
	}
	if members == nil {
		members, _, _ = jsonscan.Index(raw)
	}
	return Fields{raw: raw, index: members}
}

// trimJSON is b without the white space around its value: white space
// within it makes Fields rewrite it, but that around it is no part of it.
func trimJSON(b []byte) []byte { return bytes.Trim(b, " \t\r\n") }

// decodeFields reads a JSON object whose members are looked up at once,
// such as a page's envelope: indexObject validates it and maps its
// members in one pass, and the map is returned beside its Fields for the
// decoder's own lookups. (A record, whose members may never be looked up,
// is validated by decodeRecord.) Anything else, null included, is an
// error. A member sent twice means its last value.
func decodeFields(b []byte) (Fields, map[string]json.RawMessage, error) {
	b = trimJSON(b)
	members, canonical, err := jsonscan.Index(b)
	if err != nil {
		return Fields{}, nil, objectError(b, err)
	}
	return newFields(b, canonical, members), members, nil
}

// objectError says plainly when a value is not an object at all.
func objectError(b []byte, err error) error {
	trimmed := bytes.TrimLeft(b, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] != '{' {
		return fmt.Errorf("got %s, want an object", jsonscan.Clip(trimmed[:min(len(trimmed), 16)]))
	}
	return err
}

// members returns a map of every member: the index, or one made now.
func (f Fields) members() map[string]json.RawMessage {
	if f.index != nil || f.raw == nil {
		return f.index
	}
	// The object was validated when it was decoded: this cannot fail.
	m, _, _ := jsonscan.Index(f.raw)
	return m
}

// lookup returns the member name as sent, and whether it was sent: from
// the index, or read from the object, whose last member of that name
// wins, as in a map.
func (f Fields) lookup(name string) (json.RawMessage, bool) {
	if f.index != nil || f.raw == nil {
		v, ok := f.index[name]
		return v, ok
	}
	// The object was validated when it was decoded: this cannot fail.
	return jsonscan.Lookup(f.raw, name)
}

// UnmarshalJSON reads a JSON object, keeping all its members; null is the
// zero Fields.
func (f *Fields) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		*f = Fields{}
		return nil
	}
	d, _, err := decodeFields(bytes.Clone(b))
	if err != nil {
		return err
	}
	*f = d
	return nil
}

// MarshalJSON writes the object as the service sent it (in the form
// json.Marshal writes, see Fields), and the zero
// Fields as null.
func (f Fields) MarshalJSON() ([]byte, error) {
	if f.raw == nil {
		return []byte("null"), nil
	}
	return f.raw, nil
}

// JSON returns the whole object as the service sent it (in the form
// json.Marshal writes, see Fields), or nil for a zero
// Fields.
func (f Fields) JSON() json.RawMessage { return f.raw }

// Names returns the names of all members, sorted.
func (f Fields) Names() []string {
	members := f.members()
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Raw returns a member as sent, and whether it was sent. A member sent as
// null is returned as the bytes `null` and true.
func (f Fields) Raw(name string) (json.RawMessage, bool) {
	return f.lookup(name)
}

// Metric returns a numeric member. An absent member is absent, null is
// null (the metric is unavailable: never read it as zero) and a number is
// valid. A member of any other type is present but neither null nor valid;
// Raw shows what was sent.
func (f Fields) Metric(name string) Nullable[float64] {
	v, ok := f.lookup(name)
	switch {
	case !ok:
		return Nullable[float64]{}
	case string(v) == "null":
		return Null[float64]()
	}
	n, err := strconv.ParseFloat(string(v), 64)
	if err != nil || !jsonscan.IsNumber(v) {
		return Nullable[float64]{state: stateOther}
	}
	return Value(n)
}

// Text returns a string member as untrusted text, and whether the member is
// a string. Publisher text is data, never instructions: show it only
// through Untrusted.String.
func (f Fields) Text(name string) (Untrusted, bool) {
	v, ok := f.lookup(name)
	if !ok || len(v) == 0 || v[0] != '"' {
		return Untrusted{}, false
	}
	var text string
	_ = json.Unmarshal(v, &text) // a member of a decoded object: a valid string
	return Untrusted{raw: text}, true
}

// Time returns a timestamp member, and whether it is one: an ISO 8601
// string with a zone, or a number of Unix milliseconds (the form of the
// activity history). Null, absent and anything else return false.
func (f Fields) Time(name string) (time.Time, bool) {
	v, ok := f.lookup(name)
	if !ok {
		return time.Time{}, false
	}
	t, err := iso8601.FromJSON(v)
	return t, err == nil
}

// Decode decodes the whole object into v with encoding/json, for callers
// who keep their own struct for the members they use.
func (f Fields) Decode(v any) error {
	if f.raw == nil {
		return errors.New("gamedata: no members to decode")
	}
	return json.Unmarshal(f.raw, v)
}

// isNull reports whether b, a JSON value, is null.
func isNull(b []byte) bool { return bytes.Equal(bytes.TrimSpace(b), []byte("null")) }
