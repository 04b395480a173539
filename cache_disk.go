package gamedata

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// diskCache is a Cache with one file per entry in a directory.
type diskCache struct{ dir string }

// diskMagic starts every entry file; its last byte is the format version.
var diskMagic = []byte("gdcache\x01")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// NewDiskCache returns a Cache that keeps one file per entry in dir,
// creating dir if needed, for programs that restart between runs. An entry
// is written to a temporary file and renamed into place, so a reader sees
// the old entry or the new one, never a mix; every file carries its key and
// a checksum, so a file that a crash, a full disk or anything else left
// truncated, empty or changed reads as a miss. The cache does not bound its
// size: remove the directory to empty it.
func NewDiskCache(dir string) (Cache, error) {
	if dir == "" {
		return nil, errors.New("gamedata: NewDiskCache: empty directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("gamedata: NewDiskCache: %w", err)
	}
	return &diskCache{dir: dir}, nil
}

// path names an entry's file by a hash of its key: keys are URLs, which
// hold characters a file name cannot.
func (d *diskCache) path(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(d.dir, hex.EncodeToString(sum[:])+".entry")
}

// Get returns the value stored under key, or a miss when the file is
// absent, unreadable or damaged.
func (d *diskCache) Get(key string) ([]byte, bool) {
	b, err := os.ReadFile(d.path(key))
	if err != nil {
		return nil, false
	}
	return decodeDiskEntry(b, key)
}

// Set writes value under key. A failure to write leaves the previous
// entry, or none: a cache that cannot store only costs requests.
func (d *diskCache) Set(key string, value []byte) {
	f, err := os.CreateTemp(d.dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(encodeDiskEntry(key, value))
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), d.path(key)) != nil {
		os.Remove(f.Name())
	}
}

// Delete removes the entry stored under key.
func (d *diskCache) Delete(key string) { os.Remove(d.path(key)) }

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
