package store

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A SQLite path that cannot be a database is said with what is wrong
// with it and what to do, never SQLite's bare "unable to open database
// file", and nothing is made under it.
func TestSQLitePathErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notDB, []byte("not a database, but long enough to have a header of its own\n"), 0o600))
	for _, c := range []struct{ path, says string }{
		{filepath.Join(dir, "missing", "g.sqlite"), "--db " + filepath.Join(dir, "missing", "g.sqlite") + ": the directory " + filepath.Join(dir, "missing") + " does not exist; create it (mkdir -p " + filepath.Join(dir, "missing") + ") or choose another path"},
		{dir, "--db " + dir + " is a directory; give a file in it, such as " + filepath.Join(dir, "games.sqlite")},
		{"/proc/x", "cannot open or create the SQLite file /proc/x"},
		{notDB, notDB + " is not a SQLite database; choose another --db"},
		{filepath.Join(notDB, "g.sqlite"), notDB + " is not a directory"},
		{"/dev/null", "--db /dev/null is not a regular file"},
	} {
		_, err := Open(context.Background(), c.path)
		require.Error(t, err, c.path)
		assert.Contains(t, err.Error(), c.says, c.path)
		assert.NotContains(t, err.Error(), "unable to open database file", c.path)
	}
	assert.NoDirExists(t, filepath.Join(dir, "missing"))
}

// A database file that cannot be written is said to be read-only, with
// what to do. Root writes a file whatever its mode, so as root the file
// is made immutable (chattr +i) instead.
func TestSQLiteReadOnly(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.sqlite")
	db := open(t, path)
	require.NoError(t, db.Close())
	if os.Geteuid() == 0 {
		chattr, err := exec.LookPath("chattr")
		if err != nil {
			t.Skip("as root, a read-only file needs chattr: apt-get install -y e2fsprogs")
		}
		if out, err := exec.Command(chattr, "+i", path).CombinedOutput(); err != nil {
			t.Skipf("chattr +i: %v: %s (the file system has no immutable files)", err, out)
		}
		t.Cleanup(func() { exec.Command(chattr, "-i", path).Run() })
	} else {
		require.NoError(t, os.Chmod(path, 0o444))
	}
	s, err := Open(context.Background(), path)
	if err == nil {
		_, err = s.BeginRun(context.Background(), "game", time.Now())
		s.Close()
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the SQLite file "+path+" is read-only; make it and its directory writable")
}

// A connection the server refuses is said by its real cause, first, in
// the one-line form of the other database errors, in a URL as in a
// keyword/value string: a setting that --db passes on and the server
// refuses (not the TLS that sslmode=prefer tried before it), TLS
// required of a server without it, and a database not named, which is
// the user's.
func TestPostgresConnectCulprits(t *testing.T) {
	t.Parallel()
	base := pgtest.NewPasswordDatabase(t)
	u, err := url.Parse(base)
	require.NoError(t, err)
	host, port, name := u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
	addr := host + ":" + port
	inURL := func(path string) string { return "postgres://gd:" + pgtest.Password + "@" + addr + path }
	inKeywords := func(more string) string {
		return strings.TrimSpace("host=" + host + " port=" + port + " user=gd password=" + pgtest.Password + " " + more)
	}
	refused := func(setting, why string) string {
		return "the PostgreSQL server at " + addr + " refused the setting " + setting + " that --db gives it (" + why +
			"); correct or remove it in --db, where a keyword that is not a connection keyword is sent to the server as a setting"
	}
	badValue := refused("statement_timeout", `invalid value for parameter "statement_timeout": "abc"`)
	unknown := refused("statment_timeout", `unrecognized configuration parameter "statment_timeout"`)
	noTLS := "the PostgreSQL server at " + addr + " does not accept TLS, which the sslmode of --db (or PGSSLMODE) requires; " +
		"turn ssl on in the server's postgresql.conf, or, on a network you trust, give sslmode=prefer in --db"
	noDatabase := "there is no database gd at " + addr + "; create it (createdb gd) or check --db"
	for _, c := range []struct{ conn, says string }{
		{inURL("/" + name + "?statement_timeout=abc"), badValue},
		{inKeywords("dbname=" + name + " statement_timeout=abc"), badValue},
		{inURL("/" + name + "?statment_timeout=5s"), unknown},
		{inKeywords("dbname=" + name + " statment_timeout=5s"), unknown},
		{inURL("/" + name + "?sslmode=require"), noTLS},
		{inKeywords("dbname=" + name + " sslmode=require"), noTLS},
		{inURL(""), noDatabase},
		{inKeywords(""), noDatabase},
	} {
		_, err := Open(context.Background(), c.conn)
		require.Error(t, err, c.conn)
		assert.Equal(t, c.says, err.Error(), c.conn)
		assert.NotContains(t, err.Error(), pgtest.Password)
	}
}

// A password file that others may read is not used, as libpq does not
// use it: the connection goes without its password, and the refusal
// says why and what to do. Made private, it is used.
func TestPostgresPassfileOthersCanRead(t *testing.T) {
	base := pgtest.NewPasswordDatabase(t)
	u, err := url.Parse(base)
	require.NoError(t, err)
	passfile := filepath.Join(t.TempDir(), "pgpass")
	require.NoError(t, os.WriteFile(passfile, []byte("*:*:*:gd:"+pgtest.Password+"\n"), 0o600))
	t.Setenv("PGPASSFILE", passfile)
	t.Setenv("PGPASSWORD", "")
	kv := "host=" + u.Hostname() + " port=" + u.Port() + " user=gd dbname=" + strings.TrimPrefix(u.Path, "/")
	for _, conn := range []string{base, kv} {
		require.NoError(t, os.Chmod(passfile, 0o644))
		_, err := Open(context.Background(), conn)
		require.Error(t, err, conn)
		assert.Equal(t, "password authentication failed for user gd at "+u.Host+": the password file "+passfile+
			" has group or world access, so it is not used; permissions should be u=rw (0600) or less: chmod 0600 "+passfile, err.Error(), conn)

		require.NoError(t, os.Chmod(passfile, 0o600))
		db, err := Open(context.Background(), conn)
		require.NoError(t, err, conn)
		require.NoError(t, db.Close())
	}
}
