package jsonscan

import (
	"encoding/json"
	"strconv"
)

// Member is a member of a JSON object: its name and its encoded value.
type Member struct {
	Name  string
	Value []byte
}

// SetMembers returns the object raw with each member of set given its
// value: in place, where raw holds it (every time, when it is sent
// twice), and otherwise added at the end. The other members are kept as
// they are, in their order. raw is a validated object.
func SetMembers(raw []byte, set []Member) ([]byte, error) {
	if len(set) == 0 {
		return raw, nil
	}
	out := make([]byte, 0, len(raw)+32*len(set))
	found := make([]bool, len(set))
	s := New(raw)
	copied, members := 0, 0
	err := s.Object(func(name []byte) error {
		members++
		s.WS()
		start := s.Offset()
		if err := s.Skip(); err != nil {
			return err
		}
		for i, m := range set {
			if NameIs(name, m.Name) {
				out = append(append(out, raw[copied:start]...), m.Value...)
				copied, found[i] = s.Offset(), true
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	closing := s.Offset() - 1 // the object's '}'
	out = append(out, raw[copied:closing]...)
	for i, m := range set {
		if found[i] {
			continue
		}
		if members > 0 {
			out = append(out, ',')
		}
		members++
		out = append(append(strconv.AppendQuote(out, m.Name), ':'), m.Value...)
	}
	return append(out, raw[closing:]...), nil
}

// Index validates a whole JSON object in one pass and maps its members'
// names to their values, subslices of b. It reads the object as
// encoding/json reads one into a map (names unescaped, the last of a name
// sent twice wins), at several times its speed. canonical says whether b
// is as json.Marshal writes it (see Scanner.Canonical).
func Index(b []byte) (members map[string]json.RawMessage, canonical bool, err error) {
	members = make(map[string]json.RawMessage, 8)
	s := New(b)
	err = s.Object(func(name []byte) error {
		v, err := s.Value()
		members[Unquote(name)] = v
		return err
	})
	if err == nil {
		err = s.End()
	}
	return members, s.Canonical(), err
}

// Lookup returns the value of the member name of raw, a validated object,
// and whether raw holds one: the last of a name sent twice, as in a map.
func Lookup(raw []byte, name string) ([]byte, bool) {
	var found []byte
	s := New(raw)
	_ = s.Object(func(n []byte) error {
		v, err := s.Value()
		if NameIs(n, name) {
			found = v
		}
		return err
	})
	return found, found != nil
}
