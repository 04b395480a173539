package main

import (
	"github.com/gamedata-go/gamedata"
)

// cacheOption is the client option --cache-dir asks for: the library's
// disk cache, which keeps responses between runs and revalidates them with
// conditional requests.
func (a *app) cacheOption() ([]gamedata.Option, error) {
	if a.cacheDir == "" {
		return nil, nil
	}
	c, err := gamedata.NewDiskCache(a.cacheDir)
	if err != nil {
		return nil, err
	}
	return []gamedata.Option{gamedata.WithCache(c)}, nil
}
