package main

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrongPassword is a second secret: a password the server refuses,
// which must not be said either.
const wrongPassword = "N0tTheRightOne"

// secrets are the passwords no output and no table may hold.
var secrets = []string{pgtest.Password, wrongPassword}

// assertNoSecret fails when any text holds a secret.
func assertNoSecret(t *testing.T, what string, texts ...string) {
	t.Helper()
	for _, text := range texts {
		for _, s := range secrets {
			assert.NotContains(t, text, s, "%s says a password", what)
		}
	}
}

// tablesText is every row of the runs and failures tables as text.
func tablesText(t *testing.T, conn string) string {
	t.Helper()
	db, err := sql.Open("pgx", conn)
	require.NoError(t, err)
	defer db.Close()
	var b strings.Builder
	for _, q := range []string{`SELECT CAST(runs AS TEXT) FROM runs`, `SELECT CAST(failures AS TEXT) FROM failures`} {
		rows, err := db.Query(q)
		require.NoError(t, err, q)
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			b.WriteString(s + "\n")
		}
		require.NoError(t, rows.Close())
	}
	return b.String()
}

// withPassword is u as user gd with password pw and sslmode disabled.
func withPassword(t *testing.T, base, pw string) string {
	t.Helper()
	u, err := url.Parse(base)
	require.NoError(t, err)
	u.User = url.UserPassword(pgtest.PasswordUser, pw)
	return u.String()
}

// A password given to sync in any form (a URL's user information, its
// password or sslpassword parameter, a keyword/value string, PGPASSWORD,
// a passfile) is never said, through every way sync can fail or succeed:
// not on stdout or stderr, not in the runs and failures tables. Each
// failure says its culprit and what to do.
func TestSyncNeverSaysThePassword(t *testing.T) {
	twin := gamedatatest.NewServer(gamedatatest.WithSize(4, 1, 1), gamedatatest.WithHistoryPoints(4))
	defer twin.Close()
	base := pgtest.NewPasswordDatabase(t)
	u, err := url.Parse(base)
	require.NoError(t, err)
	host, port, name := u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
	good := withPassword(t, base, pgtest.Password)
	kv := "host=" + host + " port=" + port + " user=gd password=" + pgtest.Password + " dbname=" + name + " sslmode=disable"
	passfile := filepath.Join(t.TempDir(), "pgpass")
	t.Setenv("PGPASSFILE", passfile)
	t.Setenv("PGPASSWORD", "")
	writePassfile := func(pw string) {
		require.NoError(t, os.WriteFile(passfile, []byte("*:*:*:gd:"+pw+"\n"), 0o600))
	}

	type tc struct {
		name, db string
		setup    func()
		code     int
		says     []string
	}
	for _, c := range []tc{
		{name: "a refused scheme", db: "mysql://gd:" + pgtest.Password + "@127.0.0.1/games", code: 2,
			says: []string{"the scheme mysql:// is not supported", "a postgres:// or postgresql:// URL, or a keyword/value string"}},
		{name: "nothing listening, URL", db: "postgres://gd:" + pgtest.Password + "@127.0.0.1:1/games", code: 1,
			says: []string{"could not reach the database at 127.0.0.1:1", "check --db"}},
		{name: "nothing listening, password parameter", db: "postgres://gd@127.0.0.1:1/games?password=" + pgtest.Password, code: 1,
			says: []string{"could not reach the database at 127.0.0.1:1"}},
		{name: "nothing listening, sslpassword parameter", db: "postgresql://gd@127.0.0.1:1/games?sslpassword=" + pgtest.Password, code: 1,
			says: []string{"could not reach the database at 127.0.0.1:1"}},
		{name: "nothing listening, keyword/value", db: "host=127.0.0.1 port=1 user=gd password=" + pgtest.Password + " dbname=games", code: 1,
			says: []string{"could not reach the database at 127.0.0.1:1"}},
		{name: "a wrong password", db: withPassword(t, base, wrongPassword), code: 1,
			says: []string{"password authentication failed for user gd at " + host + ":" + port + "; set PGPASSWORD or ~/.pgpass"}},
		{name: "a wrong password in the passfile", db: base, setup: func() { writePassfile(wrongPassword) }, code: 1,
			says: []string{"password authentication failed for user gd"}},
		{name: "a wrong password in PGPASSWORD", db: base, setup: func() { t.Setenv("PGPASSWORD", wrongPassword) }, code: 1,
			says: []string{"password authentication failed for user gd"}},
		{name: "no such database", db: strings.Replace(good, "/"+name, "/"+name+"_missing", 1), code: 1,
			says: []string{"there is no database " + name + "_missing at " + host + ":" + port, "createdb"}},
		{name: "the password in the URL", db: good, code: 0},
		{name: "a keyword/value string", db: kv, code: 0},
		{name: "the password in PGPASSWORD", db: base, setup: func() { t.Setenv("PGPASSWORD", pgtest.Password) }, code: 0},
		{name: "the password in the passfile", db: base, setup: func() { writePassfile(pgtest.Password) }, code: 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PGPASSWORD", "")
			writePassfile("")
			if c.setup != nil {
				c.setup()
			}
			code, out, errOut := cli(t, twin.URL, "sync", "--db", c.db, "--no-cache", "--range", "24h")
			assert.Equal(t, c.code, code, errOut)
			for _, s := range c.says {
				assert.Contains(t, errOut, s)
			}
			assert.NotContains(t, errOut, "could not reach the service")
			assertNoSecret(t, c.name, out, errOut)
			_, err := os.Stat(c.db)
			assert.ErrorIs(t, err, os.ErrNotExist, "no file named after the connection string")
		})
	}
	assertNoSecret(t, "the runs and failures tables", tablesText(t, good))

	// A run that fails on the service's side records its failures; they
	// hold no password either.
	code, _, errOut := cli(t, "http://127.0.0.1:0", "sync", "--db", good, "--no-cache")
	assert.Equal(t, 1, code)
	assertNoSecret(t, "a run the service failed", errOut, tablesText(t, good))
}

// A database at version 1 whose tables are not there fails its
// migration: said naming the database, without the password.
func TestSyncMigrationFailureSaysNoPassword(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	base := pgtest.NewPasswordDatabase(t)
	good := withPassword(t, base, pgtest.Password)
	db, err := sql.Open("pgx", good)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)`)
	require.NoError(t, err)
	require.NoError(t, db.Close())
	code, out, errOut := cli(t, twin.URL, "sync", "--db", good, "--no-cache")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "migration to version 2")
	assert.Contains(t, errOut, "the PostgreSQL database "+strings.TrimPrefix(strings.SplitN(base, "/", 4)[3], "")+" at 127.0.0.1:", "the database is named")
	assertNoSecret(t, "a failed migration", out, errOut)
	assert.Empty(t, twin.Requests(), "nothing is asked of the service")
}

// PostgreSQL stopped while sync runs: the error says it was the
// database, that what was fetched is kept and that a rerun goes on; it
// says no password.
func TestSyncDatabaseLostMidRun(t *testing.T) {
	t.Parallel()
	pg := pgtest.NewServer(t)
	conn := strings.Replace(pg.NewDatabase(t), "postgres@", "postgres:"+pgtest.Password+"@", 1)
	twin := newTwin(t)
	var stop sync.Once
	// The first detail request stops the server: the run has written
	// the directory and is fetching what is due.
	twin.SetFaults(gamedatatest.Faults{Rate: 1, Match: func(r *http.Request) bool {
		if strings.HasPrefix(r.URL.Path, "/api/packages/") {
			stop.Do(func() { require.NoError(t, pg.Stop()) })
		}
		return false
	}})
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"--base-url", twin.URL, "--rate", "0", "sync", "--db", conn, "--no-cache"}, &stdout, &stderr)
	errOut := stderr.String()
	assert.Equal(t, 1, code, errOut)
	assert.Regexp(t, `gamedata: sync: lost the database at 127\.0\.0\.1:\d+ during the run \(.*\); what was fetched so far is kept: run sync again once PostgreSQL is back, and it goes on from there\n$`, errOut)
	assert.NotContains(t, errOut, "could not reach the service")
	assertNoSecret(t, "a database lost mid-run", stdout.String(), errOut)
}

// sync at the edges of --db, with a password whose halves are
// distinctive: an @ in it left raw, a keyword misspelt, a setting the
// server refuses, TLS required of a server without it, a password file
// others may read. Each is said by its real cause in one line, the
// malformed ones before anything connects, and no byte of a password is
// said, nor the user of an ambiguous URL.
func TestSyncDBEdgesSayNoPassword(t *testing.T) {
	twin := newTwin(t)
	base := pgtest.NewPasswordDatabase(t)
	u, err := url.Parse(base)
	require.NoError(t, err)
	host, port, name := u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
	const raw = "Sup3r@S3cretPw"
	kv := "host=" + host + " port=" + port + " user=gd dbname=" + name
	good := withPassword(t, base, pgtest.Password)
	passfile := filepath.Join(t.TempDir(), "pgpass")
	require.NoError(t, os.WriteFile(passfile, []byte("*:*:*:gd:"+pgtest.Password+"\n"), 0o600))
	t.Setenv("PGPASSFILE", passfile)
	t.Setenv("PGPASSWORD", "")
	for _, c := range []struct {
		name, db string
		mode     os.FileMode // the password file's
		code     int
		lines    []string // stderr, whole
	}{
		{"a raw @ in the password", "postgres://gd:" + raw + "@" + u.Host + "/" + name, 0o600, 2, []string{
			"gamedata: sync: --db postgres://…: where its user information ends is ambiguous (an @ past the one before the host, or a / or ? before that one), and part of a password would be read as the host; an @ in a password must be written %40, a / %2F and a ? %3F"}},
		{"passwrd=, keywords", kv + " passwrd=" + raw, 0o600, 2, []string{
			`gamedata: sync: --db: invalid connection option "passwrd": did you mean password?`}},
		{"passwrd=, URL", base + "?passwrd=" + url.QueryEscape(raw), 0o600, 2, []string{
			`gamedata: sync: --db: invalid connection option "passwrd": did you mean password?`}},
		{"dbnme=", "host=" + host + " port=" + port + " user=gd password=" + raw + " dbnme=" + name, 0o600, 2, []string{
			`gamedata: sync: --db: invalid connection option "dbnme": did you mean dbname?`}},
		{"a setting refused", good + "?statement_timeout=abc", 0o600, 1, []string{
			`gamedata: sync: the PostgreSQL server at ` + u.Host + ` refused the setting statement_timeout that --db gives it (invalid value for parameter "statement_timeout": "abc"); correct or remove it in --db, where a keyword that is not a connection keyword is sent to the server as a setting`}},
		{"TLS required", kv + " password=" + pgtest.Password + " sslmode=require", 0o600, 1, []string{
			"gamedata: sync: the PostgreSQL server at " + u.Host + " does not accept TLS, which the sslmode of --db (or PGSSLMODE) requires; turn ssl on in the server's postgresql.conf, or, on a network you trust, give sslmode=prefer in --db"}},
		{"a password file others may read", kv, 0o644, 1, []string{
			"gamedata: sync: the password file " + passfile + " has group or world access, so it is not used; permissions should be u=rw (0600) or less: chmod 0600 " + passfile,
			"gamedata: sync: password authentication failed for user gd at " + u.Host + ": the password file " + passfile + " has group or world access, so it is not used; permissions should be u=rw (0600) or less: chmod 0600 " + passfile}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, os.Chmod(passfile, c.mode))
			code, out, errOut := cli(t, twin.URL, "sync", "--db", c.db, "--no-cache", "--range", "24h")
			assert.Equal(t, c.code, code, errOut)
			assert.Equal(t, strings.Join(c.lines, "\n")+"\n", errOut)
			for _, part := range []string{"Sup3r", "S3cretPw", pgtest.Password} {
				assert.NotContains(t, out+errOut, part)
			}
			_, err := os.Stat(c.db)
			assert.ErrorIs(t, err, os.ErrNotExist, "no file named after the connection string")
		})
	}
	assert.Empty(t, twin.Requests(), "nothing is asked of the service")

	// prune reads --db as sync does, and says so too.
	require.NoError(t, os.Chmod(passfile, 0o644))
	code, out, errOut := cli(t, twin.URL, "prune", "--db", kv)
	assert.Equal(t, 1, code, errOut)
	assert.True(t, strings.HasPrefix(errOut, "gamedata: prune: the password file "+passfile+" has group or world access, so it is not used"), errOut)
	assert.NotContains(t, out+errOut, pgtest.Password)

	require.NoError(t, os.Chmod(passfile, 0o600))
	code, _, errOut = cli(t, twin.URL, "sync", "--db", kv, "--no-cache", "--range", "24h")
	assert.Equal(t, 0, code, "the password file, private, is used: %s", errOut)
}
