package main

import "github.com/gamedata-go/gamedata"

// shownAsIs reports whether the sanitizer shows s unchanged: the one test
// of which characters are safe, so this program keeps no list of its own.
func shownAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return gamedata.NewUntrusted(s).String() == s
		}
	}
	return true
}
