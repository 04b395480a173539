package printer

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/gamedata-go/gamedata"
)

// MemberOrder is the names of f's members in the order the service sent
// them, each once. Fields.Names sorts them; a record shown whole (get's
// CSV) keeps the service's order. A body that does not read as an object
// here (never one the client decoded) gives Names' order: no member is
// left out either way.
func MemberOrder(f gamedata.Fields) []string {
	d := json.NewDecoder(bytes.NewReader(f.JSON()))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return f.Names()
	}
	var names []string
	for d.More() {
		t, err := d.Token()
		name, ok := t.(string)
		var skip json.RawMessage
		if err != nil || !ok || d.Decode(&skip) != nil {
			return f.Names()
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}
