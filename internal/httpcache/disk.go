package httpcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strconv"
)

// Disk is a Store with one file per entry in a directory, which it holds
// open: the directory checked when the store was opened is the one used,
// whatever is later renamed onto its path.
type Disk struct {
	dir  string
	root *os.Root
}

// diskMagic starts every entry file; its last byte is the format version.
var diskMagic = []byte("gdcache\x01")

// maxDiskEntry bounds an entry file: the client's default body limit (32
// MiB, WithMaxResponseBytes) and 1 MiB for the entry's own header (its
// key, the response headers the cache keeps, times). The cache is not told
// the client's limit, so this is the bound of every disk cache.
const maxDiskEntry = 32<<20 + 1<<20

// OpenDisk returns a Store that keeps one file per entry in dir, which it
// creates, with any missing parent, with mode 0700. It refuses, with an
// *UnsafeDirError, a dir that is a symbolic link and, on Unix, one that
// another user owns or that its group or others may write: whoever can
// write the directory could plant entries.
//
// An entry is written to a temporary file and renamed into place, so a
// reader sees the old entry or the new one, never a mix; every file
// carries its key and a checksum, so a file left truncated, empty or
// changed reads as a miss. An entry is read only from a regular file of
// the store's owner, opened without following a link and without waiting
// on a FIFO, and only up to maxDiskEntry; an entry larger than that is not
// written. The store does not bound its size.
func OpenDisk(dir string) (*Disk, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	named, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if named.Mode()&fs.ModeSymlink != 0 {
		return nil, &UnsafeDirError{fmt.Sprintf("%q is a symbolic link, which whoever controls it can point elsewhere: give the directory it leads to, or use one of your own, such as under os.UserCacheDir()", dir)}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	// The checks are made on the directory as opened, so what they pass
	// is what the store uses.
	opened, err := root.Stat(".")
	if err == nil && !os.SameFile(named, opened) {
		err = &UnsafeDirError{fmt.Sprintf("%q was replaced while it was opened", dir)}
	}
	if err == nil {
		err = checkDir(dir, opened)
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	return &Disk{dir: dir, root: root}, nil
}

// UnsafeDirError is a directory OpenDisk refuses because someone other
// than its user could control it. Its message says why, and what to do.
type UnsafeDirError struct{ msg string }

// Error says why the directory is refused, and what to do.
func (e *UnsafeDirError) Error() string { return e.msg }

// name names an entry's file by a hash of its key: keys are URLs, which
// hold characters a file name cannot.
func (d *Disk) name(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:]) + ".entry"
}

// Get returns the value stored under key, or a miss when the file is
// absent, unreadable, damaged, or anything but a regular file of the
// store's owner within maxDiskEntry.
func (d *Disk) Get(key string) ([]byte, bool) {
	name := d.name(key)
	// Lstat first, so that a link, a FIFO or a device is not even opened.
	named, err := d.root.Lstat(name)
	if err != nil || !named.Mode().IsRegular() {
		return nil, false
	}
	f, err := d.root.OpenFile(name, os.O_RDONLY|entryOpenFlags, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	// And fstat after, so that what is read is the file that was checked.
	info, err := f.Stat()
	if err != nil || !os.SameFile(named, info) || !info.Mode().IsRegular() || info.Size() > maxDiskEntry || !ownedByUser(info) {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxDiskEntry+1))
	if err != nil || len(b) > maxDiskEntry {
		return nil, false
	}
	return decodeDiskEntry(b, key)
}

// Set writes value under key. A failure to write leaves the previous
// entry, or none: a cache that cannot store only costs requests. A value
// too large to be read back removes the previous entry, which it replaces.
func (d *Disk) Set(key string, value []byte) {
	b := encodeDiskEntry(key, value)
	if len(b) > maxDiskEntry {
		d.Delete(key)
		return
	}
	tmp := ".tmp-" + strconv.FormatUint(rand.Uint64(), 36)
	f, err := d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr != nil || cerr != nil || d.root.Rename(tmp, d.name(key)) != nil {
		d.root.Remove(tmp)
	}
}

// Delete removes the entry stored under key.
func (d *Disk) Delete(key string) { d.root.Remove(d.name(key)) }

// refuseDir is the error for a directory that others control.
func refuseDir(dir, why string) error {
	return &UnsafeDirError{fmt.Sprintf("%q %s, so whoever can write it could plant entries that the client would serve as the service's answers; use a directory of your own, such as under os.UserCacheDir()", dir, why)}
}

// encodeDiskEntry lays out magic, CRC-32C of the rest, key length, key and
// value. The key is kept so that a file renamed or copied under another
// entry's name is not taken for that entry.
func encodeDiskEntry(key string, value []byte) []byte {
	rest := binary.AppendUvarint(nil, uint64(len(key)))
	rest = append(rest, key...)
	rest = append(rest, value...)
	b := append([]byte(nil), diskMagic...)
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(rest, castagnoli))
	return append(b, rest...)
}

func decodeDiskEntry(b []byte, key string) ([]byte, bool) {
	if !bytes.HasPrefix(b, diskMagic) || len(b) < len(diskMagic)+4 {
		return nil, false
	}
	sum := binary.BigEndian.Uint32(b[len(diskMagic):])
	rest := b[len(diskMagic)+4:]
	if crc32.Checksum(rest, castagnoli) != sum {
		return nil, false
	}
	n, w := binary.Uvarint(rest)
	if w <= 0 || n > uint64(len(rest)-w) || string(rest[w:w+int(n)]) != key {
		return nil, false
	}
	return rest[w+int(n):], true
}
