package main

import (
	"encoding/json"

	"github.com/gamedata-go/gamedata"
)

// fieldsOf turns a value of this program's own (an activity point as a
// row) into Fields through its JSON, so that it prints like a record.
func fieldsOf(v any) (gamedata.Fields, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return gamedata.Fields{}, err
	}
	var f gamedata.Fields
	err = json.Unmarshal(b, &f)
	return f, err
}
