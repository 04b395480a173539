package gamedata

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// maxIdentifiers is the most members that identify a record: a
// dashboard entry's kind, ident and id.
const maxIdentifiers = 3

// recordIDs are the identifiers of a record, in the order their names were
// given. An array, not a slice: a directory decodes thousands of records,
// and a slice each would be an allocation each.
type recordIDs [maxIdentifiers]string

// decodeRecord validates a record and reads the members that identify it
// (at most maxIdentifiers) in one pass; the others wait for a lookup (see
// Fields.index), since a map of them would cost a cache hit most of its
// time. An identifier that is absent comes back as "".
func decodeRecord(raw []byte, names ...string) (Fields, recordIDs, error) {
	var sent [maxIdentifiers][]byte // the last value of each, as a map keeps it
	raw = trimJSON(raw)
	s := jsonscan.New(raw)
	err := s.Object(func(name []byte) error {
		v, err := s.Value()
		if i := slices.IndexFunc(names, func(n string) bool { return jsonscan.NameIs(name, n) }); i >= 0 {
			sent[i] = v
		}
		return err
	})
	if err == nil {
		err = s.End()
	}
	if err != nil {
		return Fields{}, recordIDs{}, objectError(raw, err)
	}
	id, err := identifiers(names, sent)
	if err != nil {
		return Fields{}, recordIDs{}, err
	}
	return newFields(raw, s.Canonical(), nil), id, nil
}

// decodeIndexed is decodeRecord for an object whose other members are
// read at once, such as a report: decodeFields validates and maps it in
// one pass, where decodeRecord's own pass would be a second. The map is
// returned for the decoder's lookups.
func decodeIndexed(raw []byte, names ...string) (Fields, map[string]json.RawMessage, recordIDs, error) {
	f, members, err := decodeFields(raw)
	if err != nil {
		return Fields{}, nil, recordIDs{}, err
	}
	var sent [maxIdentifiers][]byte
	for i, n := range names {
		sent[i] = members[n]
	}
	id, err := identifiers(names, sent)
	if err != nil {
		return Fields{}, nil, recordIDs{}, err
	}
	return f, members, id, nil
}

// identifiers reads the identifier members named names from their values
// as sent, nil for one that is absent, which reads as "".
func identifiers(names []string, sent [maxIdentifiers][]byte) (recordIDs, error) {
	var id recordIDs
	for i, v := range sent[:len(names)] {
		if v == nil {
			continue
		}
		var err error
		if id[i], err = identifier(names[i], v); err != nil {
			return recordIDs{}, err
		}
	}
	return id, nil
}

// identifier reads a member that identifies a record. Identifiers are
// strings; an integer is accepted as its decimal text, since numeric
// identifiers are common on game platforms and the text is what a path
// needs. Null reads as "".
func identifier(name string, v []byte) (string, error) {
	switch {
	case string(v) == "null":
		return "", nil
	case string(v) == `"game"`:
		// The kind of most records (KindGame): a constant string saves
		// an allocation a record.
		return "game", nil
	case v[0] == '"':
		return jsonscan.Unquote(v[1 : len(v)-1]), nil
	}
	if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return string(v), nil
	}
	return "", fmt.Errorf("member %q is %s, want a string identifier", name, jsonscan.Clip(v))
}

// listed wraps a record decoder for records inside a list, where a record
// that does not identify itself is useless and is an error.
func listed[T any](decode func([]byte) (T, error), identity func(T) string, what string) func([]byte) (T, error) {
	return func(raw []byte) (T, error) {
		v, err := decode(raw)
		if err == nil && identity(v) == "" {
			err = fmt.Errorf("%s does not identify itself", what)
		}
		return v, err
	}
}

// decodeList decodes the optional array member name of an object, whose
// members are members, with item; its errors name the member and the
// index.
func decodeList[T any](members map[string]json.RawMessage, name string, item func([]byte) (T, error)) ([]T, error) {
	raw, ok := members[name]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	return decodeArray(raw, name, item)
}

// decodeArray decodes each element of an array with item; its errors name
// the member and the index. The whole array is validated before any
// element is decoded, and the elements handed to item are subslices of
// raw, not copies: a page of a walk is a hundred records.
func decodeArray[T any](raw []byte, name string, item func([]byte) (T, error)) ([]T, error) {
	var elems [][]byte
	collect := func(_ int, elem []byte) error {
		elems = append(elems, elem)
		return nil
	}
	if len(raw) == 0 || raw[0] != '[' || jsonscan.Elements(raw, collect) != nil {
		return nil, &DecodeError{Member: name, Err: fmt.Errorf("got %s, want an array", jsonscan.Clip(raw))}
	}
	out := make([]T, 0, len(elems)) // an empty list sent is empty, not absent
	for i, elem := range elems {
		v, err := item(elem)
		if err != nil {
			return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", name, i), Err: err}
		}
		out = append(out, v)
	}
	return out, nil
}

// joinIdent is the identity of a package: kind and ident.
func joinIdent(kind, ident string) string {
	if kind == "" || ident == "" {
		return ""
	}
	return kind + "/" + ident
}

// partialCoverage reads the boolean member partialCoverage of an object,
// whose members are members; absent or null is false.
func partialCoverage(members map[string]json.RawMessage) (bool, error) {
	switch v := members["partialCoverage"]; string(v) {
	case "", "null", "false":
		return false, nil
	case "true":
		return true, nil
	default:
		return false, fmt.Errorf("partialCoverage is %s, want a boolean", jsonscan.Clip(v))
	}
}
