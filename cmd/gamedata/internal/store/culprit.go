package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/dsn"
	"github.com/jackc/pgx/v5/pgconn"
	sqlitedriver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Error is a failure of the database, said so that it names the
// database (without its secrets) and what to do. It keeps no network
// error in its chain, so nothing downstream takes it for the service's;
// only an interrupt (ctx's error) stays visible to errors.Is.
type Error struct {
	msg string
	ctx error
}

func (e *Error) Error() string { return e.msg }

// Unwrap is the context's error when an interrupt ended the operation,
// else nil.
func (e *Error) Unwrap() error { return e.ctx }

// explain says err, a failure of the database c names, as an *Error:
// during is true once the database was opened, so that a server that
// goes away is said to have gone mid-run. An interrupt is returned as it
// is.
func explain(c dsn.DB, err error, during bool) error {
	var done *Error
	if err == nil || errors.As(err, &done) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	var msg string
	if c.Kind == dsn.Postgres {
		msg = postgresCulprit(c, err, during)
	} else {
		msg = sqliteCulprit(c.Conn, err)
	}
	return &Error{msg: c.Redact(msg)}
}

// postgresCulprit says what went wrong with the PostgreSQL server.
func postgresCulprit(c dsn.DB, err error, during bool) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		setting := refusedSetting(pg)
		switch {
		case pg.Code == "28P01" || (pg.Code == "28000" && strings.Contains(pg.Message, "password")):
			return authFailed(c)
		case setting != "":
			return fmt.Sprintf("the PostgreSQL server at %s refused the setting %s that --db gives it (%s); correct or remove it in --db, where a keyword that is not a connection keyword is sent to the server as a setting", c.Addr, setting, pg.Message)
		case pg.Code == "28000":
			return fmt.Sprintf("the PostgreSQL server at %s refused user %s (%s); check the user in --db and the server's pg_hba.conf", c.Addr, c.User, pg.Message)
		case pg.Code == "3D000":
			return fmt.Sprintf("there is no database %s at %s; create it (createdb %s) or check --db", c.Name, c.Addr, c.Name)
		case strings.HasPrefix(pg.Code, "57P"): // shutdown, crash, starting up
			return lost(c, pg.Message, during)
		}
	}
	if tlsRefused(err) {
		return fmt.Sprintf("the PostgreSQL server at %s does not accept TLS, which the sslmode of --db (or PGSSLMODE) requires; turn ssl on in the server's postgresql.conf, or, on a network you trust, give sslmode=prefer in --db", c.Addr)
	}
	if cause, ok := connectivity(err); ok {
		return lost(c, cause, during)
	}
	return fmt.Sprintf("the PostgreSQL database %s at %s: %v", c.Name, c.Addr, err)
}

// settingName is the name a server's message gives a setting it refused.
var settingName = regexp.MustCompile(`parameter "([^"]+)"`)

// refusedSetting is the setting the server refused as a connection
// began (a name it does not know, a value it does not take, a setting a
// session may not change), or empty for another error: pgx sends the
// keywords of --db it does not read to the server as settings.
func refusedSetting(pg *pgconn.PgError) string {
	switch pg.Code {
	case "42704", "22023", "55P02", "42501": // undefined, invalid value, not now, permission
		if m := settingName.FindStringSubmatch(pg.Message); m != nil && pg.Severity == "FATAL" {
			return m[1]
		}
	}
	return ""
}

// tlsRefused reports whether every attempt to connect ended with the
// server refusing TLS, so that none fell back to a connection without
// it: the sslmode asked required TLS.
func tlsRefused(err error) bool {
	var ce *pgconn.ConnectError
	if !errors.As(err, &ce) {
		return false
	}
	attempts := []error{ce.Unwrap()}
	if joined, ok := attempts[0].(interface{ Unwrap() []error }); ok {
		attempts = joined.Unwrap()
	}
	for _, a := range attempts {
		if a == nil || !strings.Contains(a.Error(), "server refused TLS connection") {
			return false
		}
	}
	return true
}

// authFailed says that the server refused the password, or that none
// was given because the password file was not used, and why.
func authFailed(c dsn.DB) string {
	if c.Warning != "" {
		return fmt.Sprintf("password authentication failed for user %s at %s: %s", c.User, c.Addr, c.Warning)
	}
	return fmt.Sprintf("password authentication failed for user %s at %s; set PGPASSWORD or ~/.pgpass, or give the password in --db", c.User, c.Addr)
}

// lost says that the server could not be reached: before the run, check
// --db; during it, what was written is kept and a rerun continues.
func lost(c dsn.DB, cause string, during bool) string {
	if during {
		return fmt.Sprintf("lost the database at %s during the run (%s); what was fetched so far is kept: run sync again once PostgreSQL is back, and it goes on from there", c.Addr, cause)
	}
	return fmt.Sprintf("could not reach the database at %s (%s); check --db and that PostgreSQL is running there", c.Addr, cause)
}

// connectivity is the cause of err in a few words when err is a
// connection that could not be made or was lost.
func connectivity(err error) (string, bool) {
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.As(err, &dns):
		return "cannot resolve " + dns.Name + ": " + dns.Err, true
	case errors.As(err, &op):
		return op.Op + ": " + op.Err.Error(), true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection ended", true
	case errors.Is(err, driver.ErrBadConn), pgconn.SafeToRetry(err), strings.Contains(err.Error(), "conn closed"):
		return "the connection closed", true
	}
	return "", false
}

// sqliteCulprit says what is wrong with the SQLite file at path.
func sqliteCulprit(path string, err error) string {
	var se *sqlitedriver.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CANTOPEN:
			return fmt.Sprintf("cannot open or create the SQLite file %s (%s); choose a path in a directory you can write, or check its permissions", path, pathProblem(path))
		case sqlite3.SQLITE_READONLY:
			return fmt.Sprintf("the SQLite file %s is read-only; make it and its directory writable (SQLite writes beside it), or choose another --db", path)
		case sqlite3.SQLITE_NOTADB:
			return fmt.Sprintf("%s is not a SQLite database; choose another --db", path)
		case sqlite3.SQLITE_FULL:
			return fmt.Sprintf("the disk of %s is full; free space, or choose another --db", path)
		case sqlite3.SQLITE_BUSY:
			return fmt.Sprintf("the SQLite file %s stayed locked by another program for over %v; try again when it has finished", path, busyTimeout)
		}
	}
	return fmt.Sprintf("the SQLite file %s: %v", path, err)
}

// checkPath says what is wrong with path as a SQLite file before SQLite
// opens it, whose own error (unable to open database file) says nothing
// of which: nil when it names a file, or a file that may be made in an
// existing directory.
func checkPath(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("--db %s is a directory; give a file in it, such as %s", path, filepath.Join(path, "games.sqlite"))
	case err == nil && !st.Mode().IsRegular():
		return fmt.Errorf("--db %s is not a regular file; give the path of a SQLite file", path)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("--db %s: %v; check the path and its permissions", path, errors.Unwrap(err))
	}
	dir := filepath.Dir(path)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--db %s: the directory %s does not exist; create it (mkdir -p %s) or choose another path", path, dir, dir)
	case err != nil:
		return fmt.Errorf("--db %s: %v; check the path and its permissions", path, errors.Unwrap(err))
	case !st.IsDir():
		return fmt.Errorf("--db %s: %s is not a directory; choose another path", path, dir)
	}
	return nil
}

// pathProblem is why the file at path may not open, as far as its
// directory says.
func pathProblem(path string) string {
	if err := checkPath(path); err != nil {
		return err.Error()
	}
	if _, err := os.Stat(path); err == nil {
		return "the file exists, but SQLite cannot open it for writing"
	}
	return "the directory " + filepath.Dir(path) + " does not let this program make a file in it"
}
