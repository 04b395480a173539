package dsn

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// A keyword that is a misspelt connection keyword, or one pgx does not
// read, is refused by name before anything connects, in a URL's query as
// in a keyword/value string, and the message quotes no value: the value
// of a misspelt password is the password. A server setting pgx passes
// on, and a connection keyword, are not refused.
func TestParseRefusesKeywords(t *testing.T) {
	t.Setenv("PGPASSWORD", "")
	t.Setenv("PGPASSFILE", filepath.Join(t.TempDir(), "none"))
	const secret = "Zq7Vw9Xk"
	for _, c := range []struct {
		key, says string
		secret    bool // the key is a secret's, misspelt
	}{
		{"passwrd", `invalid connection option "passwrd": did you mean password?`, true},
		{"pasword", `invalid connection option "pasword": did you mean password?`, true},
		{"passwd", `invalid connection option "passwd": did you mean password?`, true},
		{"Password", `invalid connection option "Password": did you mean password?`, true},
		{"sslpasword", `invalid connection option "sslpasword": did you mean sslpassword?`, true},
		{"dbnme", `invalid connection option "dbnme": did you mean dbname?`, false},
		{"hots", `invalid connection option "hots": did you mean host?`, false},
		{"sslmod", `invalid connection option "sslmod": did you mean sslmode?`, false},
		{"hostaddr", "hostaddr is a libpq keyword that pgx, the PostgreSQL driver of gamedata, does not read; give the address as host instead", false},
		{"keepalives", "keepalives is a libpq keyword that pgx, the PostgreSQL driver of gamedata, does not read; remove it", false},
	} {
		for _, in := range []string{
			"host=db.example user=gd dbname=games " + c.key + "=" + secret,
			"postgres://gd@db.example/games?sslmode=disable&" + c.key + "=" + secret,
		} {
			_, err := Parse(in)
			require.ErrorIs(t, err, ErrRefused, in)
			assert.Equal(t, "--db: "+c.says, err.Error(), in)
			assert.NotContains(t, err.Error(), secret, in)
			if c.secret {
				assert.NotContains(t, Redact(in), secret, in)
			}
		}
	}
	for _, kv := range []string{"statement_timeout=5s", "search_path=gd", "application_name=sync", "options='-c lock_timeout=1s'", "database=games", "TimeZone=UTC", "myext.setting=1"} {
		in := "host=db.example user=gd dbname=games " + kv
		_, err := Parse(in)
		assert.NoError(t, err, in)
		key, value, _ := strings.Cut(kv, "=")
		q := key + "=" + strings.ReplaceAll(url.QueryEscape(strings.Trim(value, "'")), "+", "%20")
		_, err = Parse("postgres://gd@db.example/games?" + q)
		assert.NoError(t, err, q)
	}
}

// No setting a connection may give the server (read from a real
// PostgreSQL) is taken for a misspelt keyword: only the few that are
// libpq keywords pgx does not read are refused, by their own name.
func TestNoServerSettingLooksMisspelt(t *testing.T) {
	t.Parallel()
	db, err := sql.Open("pgx", pgtest.NewDatabase(t))
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.QueryContext(context.Background(),
		`SELECT name FROM pg_settings WHERE context IN ('user', 'superuser', 'backend', 'superuser-backend')`)
	require.NoError(t, err)
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		n++
		for _, key := range []string{name, strings.ToLower(name)} {
			if unsupported[key] {
				assert.Contains(t, keywordProblem(key), key+" is a libpq keyword")
				continue
			}
			assert.Empty(t, keywordProblem(key), key)
		}
	}
	require.NoError(t, rows.Err())
	assert.Greater(t, n, 100, "the server lists its settings")
}
