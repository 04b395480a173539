//go:build unix

package httpcache

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// entryOpenFlags open an entry without waiting: a FIFO put in its place
// would otherwise block the open until a writer came.
const entryOpenFlags = syscall.O_NONBLOCK

// checkDir refuses a directory that another user owns, or that its
// group or others may write: as ssh does for a key file.
func checkDir(dir string, info fs.FileInfo) error {
	if uid, ok := owner(info); !ok || uid != os.Geteuid() {
		return refuseDir(dir, fmt.Sprintf("belongs to user %d, not to this one (%d)", uid, os.Geteuid()))
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return refuseDir(dir, fmt.Sprintf("may be written by its group or others (mode %v; chmod go-w would stop that)", perm))
	}
	return nil
}

// ownedByUser reports whether the file of info belongs to the user the
// program runs as.
func ownedByUser(info fs.FileInfo) bool {
	uid, ok := owner(info)
	return ok && uid == os.Geteuid()
}

func owner(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}
