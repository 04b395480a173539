// Package record makes the records a command prints from what it read:
// a value of the command's own as Fields, a member added or put first,
// and a search's hits as one list, each saying what it is. Every member
// the service sent is kept as sent.
package record

import (
	"encoding/json"

	"github.com/gamedata-go/gamedata"
)

// Of turns a value of this program's own (an activity point as a
// row) into Fields through its JSON, so that it prints like a record.
func Of(v any) (gamedata.Fields, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return gamedata.Fields{}, err
	}
	var f gamedata.Fields
	err = json.Unmarshal(b, &f)
	return f, err
}

// With is f with member name set to value, as JSON: the form a
// record takes in a CSV file or a table, where member order is not kept.
func With(f gamedata.Fields, name string, value json.RawMessage) (gamedata.Fields, error) {
	m := map[string]json.RawMessage{name: value}
	for _, n := range f.Names() {
		if n != name {
			m[n], _ = f.Raw(n)
		}
	}
	return Of(m)
}
