// Package pgtest starts a throwaway PostgreSQL server for the tests of a
// package: initdb and pg_ctl from the system's PostgreSQL (Debian's
// postgresql package) on a temporary directory and a free loopback port,
// started on first use and stopped when the package's tests end. Each
// test gets a database of its own on it; EachDB runs a test against it
// and against a SQLite file alike.
//
// PostgreSQL refuses to run as root; tests that run as root run the
// server as the postgres user, as Debian's own scripts do. When the
// binaries are absent, or there is no user to run them as, the tests
// that need a server skip and say how to install it.
package pgtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// Install says how to get the binaries the tests need.
const Install = "apt-get install -y postgresql"

var (
	once    sync.Once
	current *server
	skip    string // why no server can run here, when none can
	failed  error  // why the server did not start, when it should have
	dbs     atomic.Int64
)

type server struct {
	bin, dir string
	port     int
	cred     *syscall.Credential
}

// Main runs a package's tests and then stops its server, if one started;
// call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if current != nil {
		current.stop()
	}
	return code
}

// NewDatabase returns the URL of a new, empty database on the package's
// server, starting the server on first use. It skips the test when no
// server can run here, saying why and how to install one.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return shared(t).create(t, "postgres")
}

// shared is the package's server, started on first use.
func shared(t testing.TB) *server {
	t.Helper()
	once.Do(start)
	if skip != "" {
		t.Skip(skip)
	}
	if failed != nil {
		t.Fatal(failed)
	}
	return current
}

// create makes a new database owned by owner and returns its URL as the
// postgres user.
func (s *server) create(t testing.TB, owner string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbs.Add(1))
	admin, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.ExecContext(context.Background(), "CREATE DATABASE "+name+" OWNER "+owner); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	return s.url(name)
}

func (s *server) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// start starts the package's server.
func start() {
	current, skip, failed = startServer()
}

// startServer finds the binaries, makes a cluster and starts it: it
// returns the server, or why no server can run here, or why it failed.
func startServer() (*server, string, error) {
	bin := binDir()
	if bin == "" {
		return nil, "PostgreSQL tests need initdb and pg_ctl, which are not installed: " + Install, nil
	}
	s := &server{bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, "PostgreSQL refuses to run as root, and there is no postgres user to run it as: " + Install + " makes one", nil
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "gamedata-pg-")
	if err != nil {
		return nil, "", err
	}
	s.dir = dir
	if s.cred != nil {
		if err := os.Chown(dir, int(s.cred.Uid), int(s.cred.Gid)); err != nil {
			return nil, "", err
		}
	}
	if err := s.run("initdb", "-D", s.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, "", err
	}
	if err := s.requirePassword(); err != nil {
		os.RemoveAll(dir)
		return nil, "", err
	}
	// A port found free can be taken before the server binds it: try a
	// few.
	for range 3 {
		if s.port, err = freePort(); err != nil {
			break
		}
		opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off", s.port, s.dir)
		if err = s.run("pg_ctl", "-D", s.data(), "-l", filepath.Join(s.dir, "log"), "-w", "-o", opts, "start"); err == nil {
			return s, "", nil
		}
	}
	os.RemoveAll(dir)
	return nil, "", fmt.Errorf("pgtest: %w", err)
}

// PasswordUser is the role NewPasswordDatabase connects as: the only
// one the server asks a password of (scram-sha-256), as a real server
// asks every user.
const PasswordUser = "gd"

// requirePassword makes the server ask PasswordUser for a password on
// TCP; every other role is trusted.
func (s *server) requirePassword() error {
	hba := filepath.Join(s.data(), "pg_hba.conf")
	old, err := os.ReadFile(hba)
	if err != nil {
		return err
	}
	line := "host all " + PasswordUser + " 127.0.0.1/32 scram-sha-256\n"
	return os.WriteFile(hba, append([]byte(line), old...), 0o600)
}

func (s *server) data() string { return filepath.Join(s.dir, "data") }

// run runs a PostgreSQL binary as the server's user.
func (s *server) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(s.bin, name), args...)
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("%s: %v\n%s%s", name, err, out.Bytes(), log)
	}
	return nil
}

func (s *server) stop() {
	s.run("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}

// binDir is the directory of initdb and pg_ctl: on the PATH, or the
// newest of Debian's /usr/lib/postgresql/*/bin.
func binDir() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	return ""
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
