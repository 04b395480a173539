package gamedata

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/gamedata-go/gamedata/internal/httpcache"
)

// Cache stores encoded responses by key. Implementations must be safe for
// concurrent use. The client treats a value it cannot decode, or whose
// checksum does not match, as a miss, so a cache may lose or damage
// entries without ever producing a wrong record.
//
// NewMemoryCache and NewDiskCache are the implementations this package
// provides; any store with these three methods (Redis, a database) works.
type Cache interface {
	// Get returns the value stored under key, if any. The client does not
	// modify the returned slice.
	Get(key string) ([]byte, bool)
	// Set stores value under key, replacing any previous value. The
	// client does not modify value after the call.
	Set(key string, value []byte)
	// Delete removes the value stored under key, if any.
	Delete(key string)
}

// NewMemoryCache returns a Cache in memory that holds at most maxBytes of
// keys and values, evicting the least recently used entries first. A value
// larger than maxBytes is not stored; maxBytes <= 0 stores nothing.
func NewMemoryCache(maxBytes int64) Cache { return httpcache.NewMemory(maxBytes) }

// NewDiskCache returns a Cache that keeps one file per entry in dir, for
// programs that restart between runs. Give it a directory of your own,
// such as one under os.UserCacheDir(), never a shared one such as
// os.TempDir(): whoever can write the directory can plant entries that the
// client would serve as the service's answers (a checksum is not
// authentication).
//
// NewDiskCache creates dir, and any missing parent, with mode 0700. It
// refuses, with an error matching ErrUnsafeCacheDir that says why, a dir
// that is a symbolic link and, on Unix, one that another user owns or that
// its group or others may write, as ssh refuses such a key file. (On
// Windows, where access is a matter of ACLs, only the link is checked.)
//
// An entry is written to a temporary file and renamed into place, so a
// reader sees the old entry or the new one, never a mix; every file
// carries its key and a checksum, so a file that a crash, a full disk or
// anything else left truncated, empty or changed reads as a miss. An entry
// is read only from a regular file of the cache's owner, opened without
// following a link and without waiting on a FIFO, and only up to 33 MiB:
// a link, a FIFO, a device, a file of another user or a larger file reads
// as a miss, and an entry larger than that is not written (a client whose
// WithMaxResponseBytes is above 32 MiB keeps larger bodies out of the
// disk). The cache does not bound its size: remove the directory to empty
// it.
func NewDiskCache(dir string) (Cache, error) {
	if dir == "" {
		return nil, invalidArgument("NewDiskCache: empty directory; use one of your own, such as under os.UserCacheDir()")
	}
	d, err := httpcache.OpenDisk(dir)
	var unsafe *httpcache.UnsafeDirError
	switch {
	case errors.As(err, &unsafe):
		return nil, fmt.Errorf("%w: %w", ErrUnsafeCacheDir, err)
	case err != nil:
		return nil, fmt.Errorf("gamedata: NewDiskCache: %w", err)
	}
	return d, nil
}

// cacheCounts are the cache's counters, read by Client.Stats.
type cacheCounts struct {
	hits, revalidations, misses atomic.Int64
}
