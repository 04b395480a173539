package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bad flags are bad usage: exit 2, nothing asked of the service, nothing
// on stdout.
func TestBackfillBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--top", "-1"},
		{"--top", "10001"},
		{"--package", "neon-harbor"},
		{"--job", ""},
		{"--instance", ""},
		{"extra"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"backfill"}, args...), &stdout, &stderr)
			assert.Equal(t, 2, code, stderr.String())
			assert.Empty(t, stdout.String())
			assert.NotContains(t, stderr.String(), "in-process twin", "nothing starts on bad flags")
		})
	}
}

// backfill writes OpenMetrics to stdout, ending with # EOF, in the
// exporter's names and the labels it was given, and says on stderr what
// it wrote.
func TestBackfillWritesOpenMetrics(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	games := twin.Catalog().Entries(url.Values{"kind": {"game"}, "sort": {"players"}})
	named := games[len(games)-1] // not among the top 2
	code, stdout, stderr := cli(t, twin.URL, "backfill", "--top", "2", "--package", "game/"+named.Ident, "--instance", "exporter.example:9877")
	assert.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasSuffix(stdout, "\n# EOF\n"), "ends with # EOF")
	for _, want := range []string{
		"# TYPE gamedata_platform_players gauge\n",
		`gamedata_platform_players_partial{job="gamedata",instance="exporter.example:9877"} 0 `,
		`gamedata_package_players{job="gamedata",instance="exporter.example:9877",kind="game",ident="` + named.Ident + `"} `,
		`gamedata_package_info{job="gamedata",instance="exporter.example:9877",kind="game",ident="` + named.Ident + `",title=`,
	} {
		assert.Contains(t, stdout, want)
	}
	assert.Regexp(t, `backfill: \d+ activity points, \d+ history entries of 3 packages`, stderr)
}

// A package the service does not know fails the backfill whole: exit 1,
// the error naming it, and nothing on stdout for promtool to half-read.
func TestBackfillFailsWhole(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	code, stdout, stderr := cli(t, twin.URL, "backfill", "--package", "game/no-such-game")
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "no-such-game")
}

// backfill says on stderr which package it left out because its labels,
// sanitized, are another's, as the exporter leaves it out.
func TestBackfillSaysWhatItLeftOut(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	game := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0]
	lookAlike := game.Ident + "\u200b"
	require.NoError(t, twin.AddPackage("game", lookAlike, "Not "+game.Name))
	code, stdout, stderr := cli(t, twin.URL, "backfill", "--package", "game/"+game.Ident, "--package", "game/"+lookAlike)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "\ngamedata: backfill: left out, as the exporter does, 1 package whose labels, sanitized, are another package's: package game/"+game.Ident+"\n")
	assert.NotContains(t, stdout, "Not "+game.Name)
}
