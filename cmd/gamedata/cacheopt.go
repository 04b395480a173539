package main

import (
	"errors"

	"github.com/gamedata-go/gamedata"
)

// cacheOption is the client option that --cache-dir asks for.
func (a *app) cacheOption() ([]gamedata.Option, error) {
	if a.cacheDir == "" {
		return nil, nil
	}
	return nil, usageError{errors.New("--cache-dir: this build of the library has no disk cache")}
}
