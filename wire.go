package gamedata

import (
	"bytes"
	"encoding/json"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// A value the SDK decoded is written back as the service sent it, so that
// encoding/json round-trips it losslessly: same member names, unknown
// members kept, nulls as null. The exceptions are the members the SDK
// knows and the bytes do not hold, such as the kind and ident asked for
// when a record leaves them out: those are set in the object, so that
// decoding it again fills every typed field as the first decoding did.

// stringMember is a member whose value is the string s.
func stringMember(name, s string) jsonscan.Member {
	v, _ := json.Marshal(s) // a string always marshals
	return jsonscan.Member{Name: name, Value: v}
}

// identifierSet is the member that sets identifier name to want in a
// decoded object f, when f does not already hold it: an identifier the
// SDK filled in, or one the caller changed. It reports false when f holds
// it, as a string or as the integer the SDK read as its text.
func identifierSet(f Fields, name, want string) (jsonscan.Member, bool) {
	got := ""
	if v, ok := f.Raw(name); ok {
		got, _ = identifier(name, v)
	}
	if got == want {
		return jsonscan.Member{}, false
	}
	return stringMember(name, want), true
}

// marshalRecord writes a decoded record as the service sent it, with
// its identifiers ids (name, value pairs) set in it where it does not hold
// them. A record built in Go, with no Fields, is written from the
// identifiers that are not empty, and one with none as null: the zero
// record, which decodes back to itself.
func marshalRecord(f Fields, ids ...string) ([]byte, error) {
	if f.raw != nil {
		var set []jsonscan.Member
		for i := 0; i+1 < len(ids); i += 2 {
			if m, ok := identifierSet(f, ids[i], ids[i+1]); ok {
				set = append(set, m)
			}
		}
		return jsonscan.SetMembers(f.raw, set)
	}
	typed := map[string]string{}
	for i := 0; i+1 < len(ids); i += 2 {
		if ids[i+1] != "" {
			typed[ids[i]] = ids[i+1]
		}
	}
	if len(typed) == 0 {
		return []byte("null"), nil
	}
	return json.Marshal(typed)
}

// unmarshalRecord implements UnmarshalJSON for the record types: null
// leaves dst as it is, as encoding/json does for a struct, and the data
// is copied, since Fields keeps it.
func unmarshalRecord[T any](b []byte, decode func([]byte) (T, error), dst *T) error {
	if isNull(b) {
		return nil
	}
	v, err := decode(bytes.Clone(b))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}
