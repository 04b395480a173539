package main

import (
	"errors"

	"github.com/gamedata-go/gamedata"
)

// itemCause is err without the *gamedata.ItemError around it, whose index
// counts from the start of one call (a page of an export, the refs of a
// watch) and so says less than the name of the item, which callers give.
func itemCause(err error) error {
	var ie *gamedata.ItemError
	if errors.As(err, &ie) {
		return ie.Err
	}
	return err
}
