// Package dsn reads the --db value of gamedata sync: a SQLite file's
// path, a PostgreSQL URL (postgres:// or postgresql://) or a libpq
// keyword/value string (host=… dbname=…), and refuses anything else
// before a file is made or a request sent. It is also the one place
// that takes the secrets out of a connection string: every message that
// can carry one (an error, a log line, a failure recorded in the
// database) goes through DB.Redact or Redact.
package dsn

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Kind is the kind of database a --db value names.
type Kind int

// The kinds of database sync writes.
const (
	SQLite Kind = iota + 1
	Postgres
)

// Accepted names the forms a --db value may take, for the message that
// refuses another.
const Accepted = "give a SQLite file path (./games.sqlite), a postgres:// or postgresql:// URL, or a keyword/value string such as 'host=localhost dbname=games'"

// ErrRefused is matched (errors.Is) by the error of a --db value of no
// accepted form.
var ErrRefused = errors.New("dsn: not a database sync can write")

// refused is the error of a --db value of no accepted form: its message
// says the forms accepted, and it matches ErrRefused.
type refused struct{ msg string }

func refuse(format string, args ...any) error { return &refused{fmt.Sprintf(format, args...)} }

func (e *refused) Error() string { return e.msg }

// Is makes the error match ErrRefused.
func (e *refused) Is(target error) bool { return target == ErrRefused }

// mask stands for a secret in a message.
const mask = "xxxxx"

// DB is a database named by a --db value.
type DB struct {
	// Kind is SQLite or Postgres.
	Kind Kind
	// Conn is what opens it: the SQLite file's path, or the PostgreSQL
	// connection string as given, with passfile='' added when the
	// password file pgx would read is one libpq ignores.
	Conn string
	// Addr is where a PostgreSQL server is reached, host:port (the first
	// of several hosts), or the socket's directory; User and Name are its
	// user and database (the user's name when the string gives none, as
	// the server takes it). All three are empty for SQLite.
	Addr, User, Name string
	// Warning, when not empty, is what to say before connecting: the
	// password file is not used, and why, as libpq warns.
	Warning string
	// secrets are the passwords the connection may use: in the string, in
	// PGPASSWORD or PGSSLPASSWORD, or read from a passfile.
	secrets []string
}

var (
	// scheme is a URL's scheme and its "//".
	scheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)
	// schemeLike is a word and a colon before any slash: a URL without
	// "//" (file:x, sqlite:x, mysql:x) rather than a file name.
	schemeLike = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]+):`)
	// keyword is how a libpq keyword/value string begins.
	keyword = regexp.MustCompile(`^\s*[A-Za-z_]+\s*=`)
)

// Parse reads a --db value. A value of no accepted form is refused with
// an error that matches ErrRefused, says the forms accepted and carries
// no secret of the value.
func Parse(s string) (DB, error) {
	switch {
	case s == "":
		return DB{}, refuse("--db is empty: %s", Accepted)
	case isPostgresURL(s) || keyword.MatchString(s):
		return parsePostgres(s)
	case scheme.MatchString(s):
		return DB{}, refuse("--db %s: the scheme %s:// is not supported; %s", Redact(s), scheme.FindStringSubmatch(s)[1], Accepted)
	case schemeLike.MatchString(s):
		return DB{}, refuse("--db %s: reads as a URL (%s:), not a file; %s (for a file whose name has a colon, begin it with ./)",
			Redact(s), schemeLike.FindStringSubmatch(s)[1], Accepted)
	}
	return DB{Kind: SQLite, Conn: s}, nil
}

func isPostgresURL(s string) bool {
	m := scheme.FindStringSubmatch(s)
	return m != nil && (m[1] == "postgres" || m[1] == "postgresql") // as pgx reads them
}

// namesServer reports whether the keywords of a keyword/value string
// say which server or database it means: pgx takes any other keyword as
// a setting, so "data=x.sqlite" would otherwise be a connection to the
// default server.
func namesServer(pairs [][2]string) bool {
	for _, p := range pairs {
		switch strings.ToLower(p[0]) {
		case "host", "port", "dbname", "user", "service":
			return true
		}
	}
	return false
}

// parsePostgres reads a PostgreSQL URL or keyword/value string as pgx
// will (the environment, the service file and the passfile included),
// to know where it goes and which secrets it may use. What pgx would
// read otherwise than a person or libpq is refused first: user
// information whose end is ambiguous, and a keyword misspelt or that pgx
// ignores.
func parsePostgres(s string) (DB, error) {
	isURL := isPostgresURL(s)
	if isURL && ambiguousUserinfo(s) {
		return DB{}, refuse("--db %s…: where its user information ends is ambiguous (an @ past the one before the host, or a / or ? before that one), and part of a password would be read as the host; an @ in a password must be written %%40, a / %%2F and a ? %%3F", scheme.FindString(s))
	}
	pairs, parsed := connPairs(s, isURL)
	for _, p := range pairs {
		if why := keywordProblem(p[0]); why != "" {
			return DB{}, refuse("--db: %s", why)
		}
	}
	if !isURL && parsed && !namesServer(pairs) {
		return DB{}, refuse("--db %s: reads as a keyword/value string, but names no host, port, dbname, user or service; %s (for a file whose name has =, begin it with ./)", Redact(s), Accepted)
	}
	d := DB{Kind: Postgres, Conn: s, secrets: lexicalSecrets(s)}
	for _, env := range []string{"PGPASSWORD", "PGSSLPASSWORD"} {
		d.secrets = appendSecret(d.secrets, os.Getenv(env))
	}
	cfg, err := pgconn.ParseConfig(s)
	if err != nil {
		return DB{}, refuse("--db %s: %s; %s", Redact(s), d.Redact(unwrapParse(err)), Accepted)
	}
	d.secrets = appendSecret(d.secrets, cfg.Password)
	d.User, d.Name = cfg.User, cfg.Database
	if d.Name == "" {
		d.Name = d.User
	}
	if strings.HasPrefix(cfg.Host, "/") {
		d.Addr = fmt.Sprintf("the socket %s/.s.PGSQL.%d", cfg.Host, cfg.Port)
	} else {
		d.Addr = net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	}
	d.refusePassfile(pairs, isURL)
	return d, nil
}

// refusePassfile makes d connect without the password file pgx would
// read when libpq would ignore it (it is readable by others, or not a
// file), and says so in d.Warning. pgx reads one only when no password
// is given otherwise. A service may name a passfile of its own, which
// is left to pgx.
func (d *DB) refusePassfile(pairs [][2]string, isURL bool) {
	var named, service string
	for _, p := range pairs {
		switch p[0] {
		case "passfile":
			named = p[1]
		case "service":
			service = p[1]
		}
	}
	if service != "" || os.Getenv("PGSERVICE") != "" {
		return
	}
	bare, err := pgconn.ParseConfig(withoutPassfile(d.Conn, isURL))
	if err != nil || bare.Password != "" {
		return
	}
	if why := passfileProblem(passfilePath(named)); why != "" {
		d.Conn, d.Warning = withoutPassfile(d.Conn, isURL), why
	}
}

// connPairs are the keywords and values of a connection string as pgx
// reads them: a keyword/value string's, or a URL's query parameters
// (unescaped); false when they do not parse, which pgx then says.
func connPairs(s string, isURL bool) ([][2]string, bool) {
	if !isURL {
		return keywordPairs(s)
	}
	_, query, ok := strings.Cut(s, "?")
	if !ok {
		return nil, true
	}
	var out [][2]string
	for _, param := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(param, "=")
		key, err := url.PathUnescape(k)
		if err != nil {
			return nil, false
		}
		val, err := url.PathUnescape(v)
		if err != nil {
			return nil, false
		}
		out = append(out, [2]string{key, val})
	}
	return out, true
}

// unwrapParse is a pgx parse error's cause: its own text repeats the
// connection string.
func unwrapParse(err error) string {
	if cause := errors.Unwrap(err); cause != nil {
		return cause.Error()
	}
	return err.Error()
}

func appendSecret(secrets []string, s string) []string {
	if s == "" {
		return secrets
	}
	for _, have := range secrets {
		if have == s {
			return secrets
		}
	}
	return append(secrets, s)
}

// Redact returns text fit for a message: every place it quotes the
// connection string as given says it without its secrets, and every
// secret the connection may use (a password from the string, the
// environment or a passfile), in any form a URL could escape it to, is
// masked.
func (d DB) Redact(text string) string {
	if d.Conn != "" && d.Kind == Postgres {
		text = strings.ReplaceAll(text, d.Conn, Redact(d.Conn))
	}
	for _, s := range d.secrets {
		for _, form := range []string{s, url.QueryEscape(s), url.PathEscape(s), url.UserPassword("", s).String()[1:]} {
			if form != "" {
				text = strings.ReplaceAll(text, form, mask)
			}
		}
	}
	return text
}

// Redact returns a connection string fit for a message: a URL without
// the password of its user information nor the values of its secret
// parameters (password, sslpassword, and their misspellings), a
// keyword/value string without the values of its secret keywords, a URL
// that does not parse or whose user information is ambiguous as its
// scheme alone. Anything else (a file path) is returned as it is.
func Redact(s string) string {
	switch {
	case scheme.MatchString(s):
		return redactURL(s)
	case keyword.MatchString(s):
		return redactKeywords(s)
	case schemeLike.MatchString(s): // a URL of a form this package cannot read
		return schemeLike.FindString(s) + "…"
	}
	return s
}

// secretParams are the parameters of a connection string that hold a
// secret.
var secretParams = []string{"password", "sslpassword", "oauth_client_secret"}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || ambiguousUserinfo(s) {
		// pgx reads more than net/url does (several hosts), and reads
		// user information otherwise when it has another @: say only
		// the scheme rather than risk the rest.
		return scheme.FindString(s) + "…"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), mask)
	}
	q := u.Query()
	changed := false
	for key := range q {
		if isSecret(key) {
			q[key] = []string{mask}
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return strings.Replace(u.String(), url.QueryEscape(mask), mask, -1)
}

// redactKeywords masks the secret values of a keyword/value string, read
// as libpq reads it (values bare or in single quotes, with \ escapes).
func redactKeywords(s string) string {
	pairs, ok := keywordPairs(s)
	if !ok {
		return "(a keyword/value connection string that does not parse)"
	}
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		v := p[1]
		if isSecret(p[0]) {
			v = mask
		}
		parts[i] = p[0] + "=" + quoteValue(v)
	}
	return strings.Join(parts, " ")
}

// isSecret reports whether the value of key is a secret: key is a
// secret parameter in any case, or a misspelling of one, which pgx
// would send to the server as a setting.
func isSecret(key string) bool {
	near := nearest(key)
	for _, k := range secretParams {
		if strings.EqualFold(key, k) || near == k {
			return true
		}
	}
	return false
}

func quoteValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// keywordPairs splits a keyword/value string into its keys and values;
// false when it does not parse.
func keywordPairs(s string) ([][2]string, bool) {
	var out [][2]string
	for {
		s = strings.TrimLeft(s, " \t\n\r\f\v")
		if s == "" {
			return out, true
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			return nil, false
		}
		key := strings.TrimSpace(s[:eq])
		s = strings.TrimLeft(s[eq+1:], " \t\n\r\f\v")
		var val strings.Builder
		if strings.HasPrefix(s, "'") {
			s = s[1:]
			closed := false
			for len(s) > 0 {
				c := s[0]
				s = s[1:]
				if c == '\\' && len(s) > 0 {
					val.WriteByte(s[0])
					s = s[1:]
					continue
				}
				if c == '\'' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return nil, false
			}
		} else {
			for len(s) > 0 && !strings.ContainsRune(" \t\n\r\f\v", rune(s[0])) {
				if s[0] == '\\' && len(s) > 1 {
					s = s[1:]
				}
				val.WriteByte(s[0])
				s = s[1:]
			}
		}
		out = append(out, [2]string{key, val.String()})
	}
}

// lexicalSecrets are the secrets written in a connection string itself,
// read without pgx, so that they are masked even when pgx refuses it.
func lexicalSecrets(s string) []string {
	var out []string
	if scheme.MatchString(s) {
		raw := userinfoPassword(s)
		out = appendSecret(out, raw)
		if u, err := url.PathUnescape(raw); err == nil {
			out = appendSecret(out, u)
		}
		if u, err := url.Parse(s); err == nil {
			if p, ok := u.User.Password(); ok {
				out = appendSecret(out, p)
			}
			for key, vals := range u.Query() {
				if isSecret(key) {
					for _, v := range vals {
						out = appendSecret(out, v)
					}
				}
			}
		}
		return out
	}
	if pairs, ok := keywordPairs(s); ok {
		for _, p := range pairs {
			if isSecret(p[0]) {
				out = appendSecret(out, p[1])
			}
		}
	}
	return out
}

// ambiguousUserinfo reports whether pgx, which reads a URL's user
// information as libpq does (up to its first @ before any /), would end
// it elsewhere than a person reading the URL: another @ follows before
// the query, a / comes before the @, or a ? is inside it. Part of a
// password would then be taken for the host, the port or the database.
func ambiguousUserinfo(s string) bool {
	rest := s[len(scheme.FindString(s)):]
	after := rest
	if i := strings.IndexAny(rest, "@/"); i >= 0 && rest[i] == '@' {
		if strings.Contains(rest[:i], "?") {
			return true
		}
		after = rest[i+1:]
	}
	head, _, _ := strings.Cut(after, "?")
	return strings.Contains(head, "@")
}

// userinfoPassword is the password of a URL's user information as
// written (escaped), found
// without parsing the rest: net/url refuses what pgx reads (several
// hosts), and its error quotes the URL whole.
func userinfoPassword(s string) string {
	rest := s[len(scheme.FindString(s)):]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, _ := strings.Cut(rest[:at], ":")
	return pw
}
