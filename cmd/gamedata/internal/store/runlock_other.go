//go:build !unix

package store

// holdFile holds nothing outside Unix, where there is no flock: a SQLite
// run never finds itself alone, so none is taken for dead.
func holdFile(string) (func(), bool, error) { return func() {}, false, nil }
