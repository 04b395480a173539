//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// holdFile holds the run lock of a SQLite file, the file at path, with
// flock: a lock of the open file, which the kernel drops when the
// process ends. It tries the lock exclusively first, which succeeds only
// when no other run holds it, then holds it shared. The file is never
// removed: a run that made it anew would hold a lock apart from the
// runs that hold the old one.
func holdFile(path string) (func(), bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, lockErr(path, err)
	}
	fd := int(f.Fd())
	alone := true
	err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		alone, err = false, nil
	}
	if err == nil {
		err = syscall.Flock(fd, syscall.LOCK_SH)
	}
	if err != nil {
		f.Close()
		return nil, false, lockErr(path, err)
	}
	return func() { f.Close() }, alone, nil
}

// lockErr says that the run lock at path could not be held, and what to
// do.
func lockErr(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot hold the run lock %s (%v); sync keeps that file beside the database: let it be a file this user can open, in a directory it can write", path, err)
}
