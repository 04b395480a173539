package main

import "github.com/spf13/cobra"

// newCmdEnvironment is the help topic "gamedata help environment", as
// gh's: a command with nothing to run, whose help says every variable of
// the environment the command reads, its own and those the packages under
// it read (net/http, pgx, SQLite, the Go runtime), and what each does.
// TestEnvironmentTopicListsWhatTheCodeReads holds it to the code.
func newCmdEnvironment() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "The environment variables gamedata reads",
		Long: `The environment variables gamedata reads, and what each does. A flag,
where there is one, wins over the variable.

GAMEDATA_BASE_URL: the service's base URL, for a command that calls the
service and is given no --base-url. Without either, the command uses the
in-process twin of the service, offline, and says so on stderr.

GAMEDATA_DEBUG: api (or 1, true) writes a line on stderr for each attempt
of each request: its method, route template, attempt number, status (or
error), cache status, duration and rate-limit wait; never a body, every
value sanitized and a URL's secrets taken out. 0, false or nothing
writes none; any other value is refused, as bad usage.

HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and their lower-case forms): the proxy
a request to the service goes through, as Go's net/http reads them. The
twin, on the loopback, is reached directly.

SSL_CERT_FILE, SSL_CERT_DIR: the certificate authorities an https base
URL is checked against, in place of the system's, as Go reads them on
Linux.

XDG_CACHE_HOME, HOME: where sync keeps its HTTP cache when --cache-dir
gives none (and what --cache-dir's help suggests): $XDG_CACHE_HOME/gamedata,
or $HOME/.cache/gamedata without it (Go's os.UserCacheDir; other systems
have their own place). Without either, sync runs without a cache and
says so. HOME is also where pgx looks for ~/.pgpass, ~/.pg_service.conf
and the client certificates under ~/.postgresql.

PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD, PGPASSFILE, PGSERVICE,
PGSERVICEFILE, PGSSLMODE, PGSSLCERT, PGSSLKEY, PGSSLROOTCERT,
PGSSLPASSWORD, PGSSLCERTMODE, PGSSLSNI, PGSSLNEGOTIATION, PGAPPNAME,
PGCONNECT_TIMEOUT, PGTARGETSESSIONATTRS, PGTZ, PGOPTIONS,
PGMINPROTOCOLVERSION, PGMAXPROTOCOLVERSION, PGCHANNELBINDING,
PGREQUIREAUTH: for a --db that is PostgreSQL (sync, prune), the
settings the URL or keyword/value string leaves out, as libpq reads
them (pgx reads them for gamedata). A password from the string,
PGPASSWORD, PGSSLPASSWORD or the passfile (PGPASSFILE, by default
~/.pgpass) is never said: messages show it as xxxxx.

SQLITE_TMPDIR, TMPDIR: where SQLite writes its temporary files, for a
--db that is a SQLite file.

GOMEMLIMIT: the heap the Go runtime keeps the command under. Without it
gamedata sets 128 MiB, so that a command that polls (watch, exporter)
does not grow to twice what it holds; the Go runtime's other variables
(GOGC, GOMAXPROCS, GODEBUG, GOTRACEBACK) apply as to any Go program.

NO_COLOR: gamedata writes no colour (tables, progress bars and charts in
the terminal are plain), so NO_COLOR and CLICOLOR change nothing.`,
	}
}
