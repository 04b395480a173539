package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/stretchr/testify/assert"
)

const apiSuffix = "gamedata: --base-url should be the service's root (it ends in /api, and every path starts /api/): try --base-url ROOT\n"

// A record the service does not have is said with what to check and how
// to find it, the ident sanitized and quoted for a shell; never the
// request and its raw 404.
func TestNotFoundSaysWhatToDo(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"get", "package", "game/no-such-game"},
			"gamedata: no package game/no-such-game on the service (404); check the kind and ident, or find it with: gamedata search no-such-game\n"},
		{[]string{"get", "package", "game/no such $game"},
			"gamedata: no package game/no such $game on the service (404); check the kind and ident, or find it with: gamedata search 'no such $game'\n"},
		{[]string{"get", "package", "game/it's\x1b[31m"},
			"gamedata: no package game/it's on the service (404); check the kind and ident, or find it with: gamedata search 'it'\\''s'\n"},
		{[]string{"get", "server", "192.0.2.1:1"},
			"gamedata: no server 192.0.2.1:1 on the service (404); check the id, or find it with: gamedata search 192.0.2.1:1\n"},
		{[]string{"get", "org", "no-such-org"},
			"gamedata: no organization no-such-org on the service (404); check the ident, or find it with: gamedata search no-such-org\n"},
		{[]string{"analytics", "package", "game/no-such-game"},
			"gamedata: no analytics for package game/no-such-game on the service (404); check the kind and ident, or find it with: gamedata analytics search no-such-game\n"},
	} {
		code, _, errOut := cli(t, twin.URL, tt.args...)
		assert.Equal(t, 1, code, "%v", tt.args)
		assert.Equal(t, tt.says, errOut, "%v", tt.args)
	}
}

// Without --base-url the command's own twin answers, and a record it does
// not hold is said as any service's 404 is: the base URL is not blamed
// (and reading it did panic, with no base URL to read).
func TestNotFoundOnTheCommandsOwnTwin(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"--rate", "0", "get", "package", "game/no-such-game"}, &stdout, &stderr)
	assert.Equal(t, 1, code, stderr.String())
	assert.Contains(t, stderr.String(), "gamedata: no package game/no-such-game on the service (404); check the kind and ident")
	assert.NotContains(t, stderr.String(), "panic")
}

// A service that cannot be reached is said with its address and what to
// check.
func TestUnreachableSaysWhatToCheck(t *testing.T) {
	t.Parallel()
	// Port 0 can never be listened on, so the connection is refused every
	// time; a closed server's port could be taken by a parallel test's
	// twin while the client retries.
	base := "http://127.0.0.1:0"
	code, _, errOut := cli(t, base, "get", "package", "game/x")
	assert.Equal(t, 1, code)
	assert.Regexp(t, `^gamedata: could not reach the service at `+base+`: dial tcp .*connection refused; check --base-url and the network\n$`, errOut)

	dns := fmt.Errorf("gamedata: GET http://h.invalid/api/packages/game/x after 5 attempts: %w",
		&net.DNSError{Err: "no such host", Name: "h.invalid", IsNotFound: true})
	assert.Equal(t, "could not reach the service at http://h.invalid: lookup h.invalid: no such host; check --base-url and the network",
		message.Explain(dns, "http://h.invalid").Error())
}

// A 404 that the base URL causes blames --base-url, not the record: a
// base that ends in /api (every path is then /api/api/…), a directory or
// a search the service would always have, or a record whose directory is
// not found either (every call is a 404). A later page's 404 may be a
// page out of range, and a record's 404 alone is the record's.
func TestNotFoundBlamesTheBaseURL(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ident := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0].Ident
	for _, tt := range []struct {
		base string
		args []string
		says string
	}{
		{"/api", []string{"get", "package", "game/" + ident}, apiSuffix},
		{"/api/", []string{"list"}, apiSuffix},
		{"/api", []string{"search", ident}, apiSuffix},
		{"/api", []string{"orgs"}, apiSuffix},
		{"/v2", []string{"list"}, "has no /api/dashboard (404), which every one of its calls uses; check --base-url"},
		{"/v2", []string{"search", ident}, "has no /api/search (404), which every one of its calls uses; check --base-url"},
		{"/v2", []string{"get", "package", "game/" + ident}, "has no /api/dashboard (404), which every one of its calls uses; check --base-url"},
		{"/v2", []string{"get", "org", "x"}, "has no /api/dashboard (404), which every one of its calls uses; check --base-url"},
		{"", []string{"get", "package", "game/no-such"}, "no package game/no-such on the service (404)"},
	} {
		code, _, errOut := cli(t, twin.URL+tt.base, tt.args...)
		assert.Equal(t, 1, code, "%s %v", tt.base, tt.args)
		says := strings.ReplaceAll(tt.says, "ROOT", twin.URL)
		assert.Contains(t, errOut, says, "%s %v", tt.base, tt.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}
