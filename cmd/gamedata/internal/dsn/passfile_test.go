package dsn

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A password file that others may read, or that is not a file, is not
// used, as libpq does not use it, and Parse says so in its Warning: the
// connection string it opens makes pgx read no password file. A file
// only its owner may read is used as before, and none is looked at when
// a password is given otherwise.
func TestParseIgnoresAPassfileOthersCanRead(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte("*:*:*:gd:FromPassfile9\n"), 0o600))
		require.NoError(t, os.Chmod(path, mode))
		return path
	}
	private, shared, group := file("private", 0o600), file("shared", 0o644), file("group", 0o640)
	worldAccess := func(path string) string {
		return "the password file " + path + " has group or world access, so it is not used; permissions should be u=rw (0600) or less: chmod 0600 " + path
	}
	for _, c := range []struct {
		name, conn, passfile, pgpassword string
		warning, password, database      string
	}{
		{"URL, shared", "postgres://gd@db.example/games", shared, "", worldAccess(shared), "", "games"},
		{"URL with a query, group", "postgres://gd@db.example/games?sslmode=disable", group, "", worldAccess(group), "", "games"},
		{"keywords, shared", "host=db.example user=gd dbname=games", shared, "", worldAccess(shared), "", "games"},
		{"keywords ending in a backslash", `host=db.example user=gd dbname=games\`, shared, "", worldAccess(shared), "", "games"},
		{"a directory", "host=db.example user=gd dbname=games", dir, "",
			"the password file " + dir + " is not a plain file, so it is not used; point passfile or PGPASSFILE at a file", "", "games"},
		{"named in the string", "host=db.example user=gd dbname=games passfile=" + shared, private, "", worldAccess(shared), "", "games"},
		{"named in the URL", "postgres://gd@db.example/games?passfile=" + shared, private, "", worldAccess(shared), "", "games"},
		{"URL, private", "postgres://gd@db.example/games", private, "", "", "FromPassfile9", "games"},
		{"keywords, private", "host=db.example user=gd dbname=games", private, "", "", "FromPassfile9", "games"},
		{"a password in the string", "host=db.example user=gd password=InString1 dbname=games", shared, "", "", "InString1", "games"},
		{"a password in the URL", "postgres://gd:InString1@db.example/games", shared, "", "", "InString1", "games"},
		{"PGPASSWORD", "postgres://gd@db.example/games", shared, "FromEnv42", "", "FromEnv42", "games"},
		{"no file", "postgres://gd@db.example/games", filepath.Join(dir, "none"), "", "", "", "games"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PGPASSFILE", c.passfile)
			t.Setenv("PGPASSWORD", c.pgpassword)
			d, err := Parse(c.conn)
			require.NoError(t, err)
			assert.Equal(t, c.warning, d.Warning)
			if c.warning == "" {
				assert.Equal(t, c.conn, d.Conn)
			}
			cfg, err := pgconn.ParseConfig(d.Conn)
			require.NoError(t, err)
			assert.Equal(t, c.password, cfg.Password, "the password pgx connects with")
			assert.Equal(t, c.database, cfg.Database)
			assert.Equal(t, "db.example", cfg.Host)
		})
	}
}
