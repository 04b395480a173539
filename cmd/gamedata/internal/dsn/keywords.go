package dsn

import (
	"fmt"
	"strings"
)

// The keywords of a connection string, as pgx v5 reads them. libpq
// refuses a keyword it does not know ("invalid connection option");
// pgx instead sends it to the server as a setting, so that a misspelt
// keyword (passwrd=, dbnme=) is not refused but lost, and the failure it
// causes later blames something else. The server is the one authority
// on its settings (they differ by version and extension, and it refuses
// an unknown one by name, at once): what is checked here is only that a
// keyword is not a connection keyword misspelt, nor one pgx ignores.
var (
	// readByDriver are the keywords pgx reads itself: libpq's that it
	// supports, its own spelling database and the URL's ssl=true, and
	// pgx's statement-cache settings.
	readByDriver = words(`host port dbname database user password passfile connect_timeout
		sslmode sslkey sslcert sslcertmode sslrootcert sslnegotiation sslpassword sslsni ssl
		krbspn krbsrvname target_session_attrs service servicefile min_protocol_version
		max_protocol_version channel_binding require_auth
		statement_cache_capacity description_cache_capacity default_query_exec_mode`)
	// forwarded are libpq's keywords that pgx passes on and the server
	// reads as libpq means them.
	forwarded = words(`application_name client_encoding options`)
	// unsupported are libpq's keywords that pgx neither reads nor can
	// pass on: the server would refuse them, or take them for a setting
	// of its own side, or a replication connection sync cannot use.
	unsupported = words(`hostaddr keepalives keepalives_idle keepalives_interval keepalives_count
		tcp_user_timeout gssencmode gsslib gssdelegation sslcompression sslcrl sslcrldir
		sslkeylogfile requirepeer fallback_application_name load_balance_hosts
		ssl_min_protocol_version ssl_max_protocol_version replication
		oauth_issuer oauth_client_id oauth_client_secret oauth_scope scram_client_key scram_server_key`)
)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// keywordProblem says what is wrong with key, a keyword of a connection
// string, without its value (which may be a password under a misspelt
// name): empty for a connection keyword pgx reads or passes on, and for
// a name that is no misspelling of one, which the server is left to
// read as a setting.
func keywordProblem(key string) string {
	switch {
	case readByDriver[key] || forwarded[key]:
		return ""
	case key == "hostaddr":
		return "hostaddr is a libpq keyword that pgx, the PostgreSQL driver of gamedata, does not read; give the address as host instead"
	case unsupported[key]:
		return fmt.Sprintf("%s is a libpq keyword that pgx, the PostgreSQL driver of gamedata, does not read; remove it", key)
	}
	if near := nearest(key); near != "" {
		return fmt.Sprintf("invalid connection option %q: did you mean %s?", key, near)
	}
	return ""
}

// nearest is the connection keyword key is likely a misspelling of (a
// letter wrong, missing, added or two swapped; two for a long keyword;
// any case), or empty. No setting a connection may give PostgreSQL 15
// is this near a keyword without being one.
func nearest(key string) string {
	key = strings.ToLower(key)
	best, bestDist := "", 3
	for _, set := range []map[string]bool{readByDriver, forwarded, unsupported} {
		for kw := range set {
			limit := 1
			if len(kw) > 5 {
				limit = 2
			}
			if d := distance(key, kw); d <= limit && (d < bestDist || d == bestDist && kw < best) {
				best, bestDist = kw, d
			}
		}
	}
	return best
}

// distance is the optimal string alignment distance between a and b:
// the edits (a byte inserted, removed or changed, two adjacent bytes
// swapped) that make one the other.
func distance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
