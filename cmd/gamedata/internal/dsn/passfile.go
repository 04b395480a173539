package dsn

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// passfilePath is the password file pgx reads for a connection string
// whose keyword passfile is named (empty when it names none): that one,
// or PGPASSFILE, or ~/.pgpass; empty when there is no home directory.
func passfilePath(named string) string {
	switch {
	case named != "":
		return named
	case os.Getenv("PGPASSFILE") != "":
		return os.Getenv("PGPASSFILE")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".pgpass")
}

// passfileProblem says why libpq would not use the password file at
// path, in its words, or returns empty: pgx reads a file that anyone may
// read, where libpq warns and ignores it. A file that is not there is
// no problem, as for libpq; nor is any file on Windows, whose libpq does
// not look at permissions.
func passfileProblem(path string) string {
	if path == "" || runtime.GOOS == "windows" {
		return ""
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return ""
	case !st.Mode().IsRegular():
		return fmt.Sprintf("the password file %s is not a plain file, so it is not used; point passfile or PGPASSFILE at a file", path)
	case st.Mode().Perm()&0o077 != 0:
		return fmt.Sprintf("the password file %s has group or world access, so it is not used; permissions should be u=rw (0600) or less: chmod 0600 %s", path, path)
	}
	return ""
}

// withoutPassfile is the connection string s with the passfile keyword
// set empty after everything else in it, so that pgx reads no password
// file (a later keyword wins in both forms).
func withoutPassfile(s string, isURL bool) string {
	if !isURL {
		// A backslash that ends the string escapes nothing, and pgx
		// drops it: left there it would escape the space added.
		if n := len(s) - len(strings.TrimRight(s, `\`)); n%2 == 1 {
			s = s[:len(s)-1]
		}
		return s + " passfile=''"
	}
	switch {
	case strings.HasSuffix(s, "?") || strings.HasSuffix(s, "&"):
		return s + "passfile="
	case strings.Contains(s, "?"):
		return s + "&passfile="
	}
	return s + "?passfile="
}
