package gamedata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// decodeRecord decodes a record and reads the members that identify it;
// an identifier that is absent comes back as "".
func decodeRecord(raw []byte, names ...string) (Fields, []string, error) {
	f, err := decodeFields(raw)
	if err != nil {
		return Fields{}, nil, err
	}
	ids := make([]string, len(names))
	for i, name := range names {
		if ids[i], _, err = f.identifier(name); err != nil {
			return Fields{}, nil, err
		}
	}
	return f, ids, nil
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

// decodeList decodes the optional array member name of f with item; its
// errors name the member and the index.
func decodeList[T any](f Fields, name string, item func([]byte) (T, error)) ([]T, error) {
	raw, ok := f.members[name]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(raw, &raws); err != nil {
		return nil, &DecodeError{Member: name, Index: -1, Err: fmt.Errorf("want an array: %w", err)}
	}
	out := make([]T, len(raws))
	for i, r := range raws {
		var err error
		if out[i], err = item(r); err != nil {
			return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", name, i), Index: i, Err: err}
		}
	}
	return out, nil
}

// marshalRecord writes a decoded record as the service sent it, and a
// record built in Go (with no Fields) from its typed identifiers.
func marshalRecord(f Fields, typed map[string]any) ([]byte, error) {
	if f.raw != nil {
		return f.raw, nil
	}
	return json.Marshal(typed)
}

// unmarshalRecord implements UnmarshalJSON for the record types: the data
// is copied, since Fields keeps it.
func unmarshalRecord[T any](b []byte, decode func([]byte) (T, error), dst *T) error {
	v, err := decode(bytes.Clone(b))
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// joinIdent is the identity of a package: kind and ident.
func joinIdent(kind, ident string) string {
	if kind == "" || ident == "" {
		return ""
	}
	return strings.Join([]string{kind, ident}, "/")
}
