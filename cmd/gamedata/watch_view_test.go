package main

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/gamedatatest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a terminal, watch says first what it watches and how often, then a
// line a person reads for each change: the op, the identity and title,
// and for an update what changed, old → new. Several idents follow one
// "package". The test waits on the lines themselves, never on the clock.
func TestWatchOnTerminal(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	a, b := twin.Catalog().Packages[0], twin.Catalog().Packages[1]
	ctx, cancel := context.WithCancel(guard(t))
	defer cancel()
	stdout, stderr := newLineWriter(), newLineWriter()
	f := newFactory(stdout, stderr)
	f.io.outTTY, f.io.errTTY, f.io.width = true, true, 200
	done := make(chan int, 1)
	ended, over := context.WithCancel(context.Background())
	go func() {
		done <- runWith(ctx, f, []string{"--base-url", twin.URL, "--rate", "0", "watch", "--every", "20ms",
			"package", a.Kind + "/" + a.Ident, b.Kind + "/" + b.Ident})
		over()
	}()
	assert.Equal(t, fmt.Sprintf("gamedata: watch: watching 2 packages (%s/%s, %s/%s) every 20ms, a line a change; Ctrl-C to stop", a.Kind, a.Ident, b.Kind, b.Ident),
		stderr.next(t, ended))
	added := []string{stdout.next(t, ended), stdout.next(t, ended)}
	assert.ElementsMatch(t, []string{
		fmt.Sprintf("added   %s/%s  %s", a.Kind, a.Ident, gamedata.NewUntrusted(a.Name).String()),
		fmt.Sprintf("added   %s/%s  %s", b.Kind, b.Ident, gamedata.NewUntrusted(b.Name).String()),
	}, added)

	players := 123456.0
	require.NoError(t, twin.UpdatePackage(a.Kind, a.Ident, gamedatatest.PackageUpdate{Title: "Renamed", Players: &players}))
	line := stdout.next(t, ended)
	assert.Regexp(t, "^updated "+regexp.QuoteMeta(a.Kind+"/"+a.Ident)+"  Renamed: ", line)
	assert.Regexp(t, `\btitle .+ → Renamed\b`, line)
	assert.Regexp(t, `\bplayers \S+ → 123456\b`, line)
	cancel()
	assert.Equal(t, 0, <-done)
}

// watch takes several idents after one "package", and "package" as often
// as wanted; anything else is bad usage.
func TestWatchRefs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want []gamedata.PackageRef
	}{
		{nil, nil},
		{[]string{"package", "game/a"}, []gamedata.PackageRef{{Kind: "game", Ident: "a"}}},
		{[]string{"package", "game/a", "mod/b"}, []gamedata.PackageRef{{Kind: "game", Ident: "a"}, {Kind: "mod", Ident: "b"}}},
		{[]string{"package", "game/a", "package", "mod/b"}, []gamedata.PackageRef{{Kind: "game", Ident: "a"}, {Kind: "mod", Ident: "b"}}},
	} {
		p, err := parseArgs(t, append([]string{"watch"}, tt.args...)...)
		require.NoError(t, err, "%v", tt.args)
		assert.Equal(t, tt.want, p.opts.(*watchOptions).Refs, "%v", tt.args)
	}
	for _, args := range [][]string{
		{"game/a"},
		{"package"},
		{"package", "package", "game/a"},
		{"package", "game"},
		{"server", "1"},
	} {
		_, err := parseArgs(t, append([]string{"watch"}, args...)...)
		assert.True(t, message.IsUsage(err), "%v: %v", args, err)
	}
}
