package main

import (
	"slices"

	"github.com/gamedata-go/gamedata"
)

// chooseColumns picks the columns of records: their identifiers, their
// title (or name, or time), whether their coverage is partial, then every
// member that is a number or null in all of them and a number in one at
// least, by name.
func chooseColumns(records []gamedata.Fields) []string {
	present := map[string]bool{}
	for _, f := range records {
		for _, n := range f.Names() {
			present[n] = true
		}
	}
	var cols []string
	for _, c := range identityColumns {
		if present[c] {
			cols = append(cols, c)
		}
	}
	for _, c := range []string{"title", "name", "capturedAt", "time"} {
		if present[c] {
			cols = append(cols, c)
			break
		}
	}
	if present["partialCoverage"] {
		cols = append(cols, "partialCoverage") // true: the totals are lower bounds
	}
	var metrics []string
	for n := range present {
		if slices.Contains(cols, n) || !numeric(records, n) {
			continue
		}
		metrics = append(metrics, n)
	}
	slices.Sort(metrics)
	return append(cols, metrics...)
}

// numeric reports whether member name is a number or null wherever it is
// sent, and a number once at least.
func numeric(records []gamedata.Fields, name string) bool {
	seen := false
	for _, f := range records {
		m := f.Metric(name)
		switch {
		case m.Valid():
			seen = true
		case m.Present() && !m.IsNull():
			return false
		}
	}
	return seen
}
