package dsn

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each form of --db is read as the database it names, and anything else
// is refused naming the forms accepted, its secret left out.
func TestParse(t *testing.T) {
	t.Setenv("PGPASSWORD", "")
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	for _, c := range []struct {
		in       string
		kind     Kind
		addr     string
		user, db string
	}{
		{"games.sqlite", SQLite, "", "", ""},
		{"/var/lib/gamedata/games.sqlite", SQLite, "", "", ""},
		{"./a:b.sqlite", SQLite, "", "", ""},
		{"host=127.0.0.1 port=5432 user=gd password=KvSecret7 dbname=games", Postgres, "127.0.0.1:5432", "gd", "games"},
		{"  dbname = games host='db.example' port=6543 user=gd", Postgres, "db.example:6543", "gd", "games"},
		{"postgres://gd:S3cret@db.example:5439/games?sslmode=disable", Postgres, "db.example:5439", "gd", "games"},
		{"postgresql://gd@[::1]/games?password=S3cret", Postgres, "[::1]:5432", "gd", "games"},
		{"host=/run/postgresql dbname=games user=gd", Postgres, "the socket /run/postgresql/.s.PGSQL.5432", "gd", "games"},
		{"host=db.example user=gd", Postgres, "db.example:5432", "gd", "gd"},
		{"postgres://gd@db.example", Postgres, "db.example:5432", "gd", "gd"},
		{"postgres://gd@db.example/games?application_name=me@home&statement_timeout=5s", Postgres, "db.example:5432", "gd", "games"},
		{"postgres://gd:p%40ss@db.example/games", Postgres, "db.example:5432", "gd", "games"},
	} {
		d, err := Parse(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.kind, d.Kind, c.in)
		assert.Equal(t, c.in, d.Conn, c.in)
		assert.Equal(t, []string{c.addr, c.user, c.db}, []string{d.Addr, d.User, d.Name}, c.in)
	}
	for _, in := range []string{
		"",
		"mysql://gd:S3cret@y/z",
		"sqlite:///tmp/x.sqlite",
		"file:x.sqlite",
		"POSTGRES://gd:S3cret@h/games",
		"mysql:host=y;password=S3cret",
		"data=2026.sqlite password=S3cret",
		"http://gd:S3cret@y/z?password=S3cret",
		"host=y password='S3cret",
		"postgres://gd:S3cret@h:notaport/db",
		"host=y port=notaport password=S3cret",
	} {
		_, err := Parse(in)
		require.ErrorIs(t, err, ErrRefused, in)
		assert.Contains(t, err.Error(), "a postgres:// or postgresql:// URL, or a keyword/value string", in)
		assert.NotContains(t, err.Error(), "S3cret", in)
	}
}

// Redact masks a password wherever a connection string holds one, and
// leaves the rest readable.
func TestRedact(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"postgres://gd:S3cret@h:5432/db":                     "postgres://gd:xxxxx@h:5432/db",
		"postgres://gd@h/db?password=S3cret&sslmode=disable": "postgres://gd@h/db?password=xxxxx&sslmode=disable",
		"postgresql://gd@h/db?sslpassword=S3cret":            "postgresql://gd@h/db?sslpassword=xxxxx",
		"postgres://gd@h/db?PassWord=S3cret":                 "postgres://gd@h/db?PassWord=xxxxx",
		"postgres://gd:S3cret@h1:5432,h2:5432/db":            "postgres://gd:xxxxx@h1:5432,h2:5432/db",
		"postgres://gd:S3cret@h1:5432,h2:x/db":               "postgres://…",
		"postgres://gd:S3c@ret@h/db":                         "postgres://…",
		"postgres://gd@h/db?passwrd=S3cret":                  "postgres://gd@h/db?passwrd=xxxxx",
		"host=h Password=S3cret pasword=S3cret":              "host=h Password=xxxxx pasword=xxxxx",
		"mysql:host=y;password=S3cret":                       "mysql:…",
		"mysql://gd:S3cret@y/z":                              "mysql://gd:xxxxx@y/z",
		"host=h user=gd password=S3cret dbname=db":           "host=h user=gd password=xxxxx dbname=db",
		"host=h password = 'S3 cr\\'et' sslpassword=S3cret":  "host=h password=xxxxx sslpassword=xxxxx",
		"host=h password='S3cret":                            "(a keyword/value connection string that does not parse)",
		"dbname='my games' user=gd":                          "dbname='my games' user=gd",
		"/var/lib/games.sqlite":                              "/var/lib/games.sqlite",
	} {
		assert.Equal(t, want, Redact(in), in)
	}
}

// DB.Redact masks every secret the connection may use, wherever a
// message quotes it and however a URL escapes it: in the string, in
// PGPASSWORD and read from a passfile.
func TestDBRedact(t *testing.T) {
	pass := filepath.Join(t.TempDir(), "pgpass")
	require.NoError(t, os.WriteFile(pass, []byte("db.example:5432:games:gd:FromPassfile9\n"), 0o600))
	t.Setenv("PGPASSFILE", pass)
	t.Setenv("PGPASSWORD", "")
	for _, c := range []struct{ conn, secret string }{
		{"postgres://gd:p%40ss%2Fw0rd@db.example:5439/games", "p@ss/w0rd"},
		{"host=db.example user=gd password='a b' dbname=games", "a b"},
		{"postgres://gd@db.example:5432/games", "FromPassfile9"},
		{"postgres://gd@db.example:5439/games?sslpassword=Ssl5ecret", "Ssl5ecret"},
	} {
		d, err := Parse(c.conn)
		require.NoError(t, err, c.conn)
		for _, form := range []string{c.secret, url.QueryEscape(c.secret), url.PathEscape(c.secret)} {
			msg := d.Redact("failed: " + c.conn + " said " + form)
			assert.NotContains(t, msg, form, c.conn)
		}
	}
	t.Setenv("PGPASSWORD", "FromEnv42")
	d, err := Parse("host=h user=gd dbname=games")
	require.NoError(t, err)
	assert.Equal(t, "password for gd is xxxxx", d.Redact("password for gd is FromEnv42"))
}

// A URL whose user information pgx would end elsewhere than a person
// reads it (libpq's rule: at the first @ before any /) is refused saying
// how to write the password, and its message quotes nothing of the user
// information: not the user, not a byte of the password.
func TestParseRefusesAmbiguousUserinfo(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"postgres://gd:Sup3r@S3cretPw@127.0.0.1:55440/games",
		"postgresql://gd:Sup3r@S3cretPw@127.0.0.1:55440/games?sslmode=disable",
		"postgres://gd:Sup3r@S3cretPw@h1:5432,h2:5432/games",
		"postgres://gd:Sup3r/S3cretPw@127.0.0.1/games",
		"postgres://127.0.0.1:55440?user=gd&password=Sup3r@S3cretPw",
		"postgres://gd:Sup3r?S3cretPw@127.0.0.1/games",
	} {
		_, err := Parse(in)
		require.ErrorIs(t, err, ErrRefused, in)
		assert.Contains(t, err.Error(), "an @ in a password must be written %40", in)
		for _, part := range []string{"Sup3r", "S3cretPw", "gd", "xxxxx"} {
			assert.NotContains(t, err.Error(), part, in)
		}
		assert.Equal(t, scheme.FindString(in)+"…", Redact(in), in)
	}
}
