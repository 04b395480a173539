//go:build !unix

package httpcache

import "io/fs"

// entryOpenFlags: FIFOs and the like are a Unix matter.
const entryOpenFlags = 0

// checkDir accepts the directory: outside Unix, access is a matter of
// ACLs, which the cache does not read.
func checkDir(string, fs.FileInfo) error { return nil }

// ownedByUser accepts every file, for the same reason.
func ownedByUser(fs.FileInfo) bool { return true }
