package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"sync"
	"testing"
)

// Password is PasswordUser's password: a known secret that tests look
// for where it must never appear.
const Password = "KvSecret7"

var roleOnce sync.Once

// NewPasswordDatabase returns a new, empty database on the package's
// server owned by PasswordUser, and the URL that reaches it as that user
// with no password in it (and the driver's default sslmode, which tries
// TLS first), as a user's --db would be: the password is Password, to be
// given in the URL, PGPASSWORD or a passfile.
func NewPasswordDatabase(t testing.TB) string {
	t.Helper()
	s := shared(t)
	roleOnce.Do(func() {
		admin, err := sql.Open("pgx", s.url("postgres"))
		if err == nil {
			_, err = admin.ExecContext(context.Background(), "CREATE ROLE "+PasswordUser+" LOGIN PASSWORD '"+Password+"'")
			admin.Close()
		}
		if err != nil {
			failed = fmt.Errorf("pgtest: create role %s: %w", PasswordUser, err)
		}
	})
	if failed != nil {
		t.Fatal(failed)
	}
	u, err := url.Parse(s.create(t, PasswordUser))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.User(PasswordUser)
	u.RawQuery = ""
	return u.String()
}

// Server is a PostgreSQL server of a test's own, which the test may
// stop, as a database that goes away while a program uses it.
type Server struct{ s *server }

// NewServer starts a server for t alone, stopped when t ends; it skips
// the test when no server can run here.
func NewServer(t testing.TB) *Server {
	t.Helper()
	s, why, err := startServer()
	if why != "" {
		t.Skip(why)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return &Server{s}
}

// NewDatabase returns the URL of a new, empty database on the server.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	return s.s.create(t, "postgres")
}

// Stop stops the server at once (pg_ctl stop -m immediate), and returns
// when it has stopped.
func (s *Server) Stop() error {
	return s.s.run("pg_ctl", "-D", s.s.data(), "-m", "immediate", "-w", "stop")
}
