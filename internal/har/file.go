package har

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Write writes f to path whole or not at all: into a temporary file
// beside it, renamed over path once complete, so that a reader never sees
// half a file and a failed write leaves the old one. The file is
// indented, without HTML escapes, and ends in a newline; the same File
// always gives the same bytes.
func Write(path string, f *File) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename: only a failure leaves it to remove
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// A recording is scrubbed and meant to be committed as a fixture:
		// readable as any other file of a repository.
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Read reads the HAR file at path. It refuses a file that is not JSON or
// whose log is not HAR 1.2.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("not a HAR file: %w", err)
	}
	if f.Log.Version != Version {
		return nil, fmt.Errorf("HAR version %q, want %q", f.Log.Version, Version)
	}
	return &f, nil
}
