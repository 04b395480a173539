//go:build !unix

package gamedata

import "io/fs"

// entryOpenFlags: FIFOs and the like are a Unix matter.
const entryOpenFlags = 0

// checkCacheDir accepts the directory: outside Unix, access is a matter of
// ACLs, which the cache does not read.
func checkCacheDir(string, fs.FileInfo) error { return nil }

// ownedByUser accepts every file, for the same reason.
func ownedByUser(fs.FileInfo) bool { return true }
