package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/stretchr/testify/assert"
)

// A template is the user's program: what it prints is written as it
// comes (a line at most held, however long), so Ctrl-C at its first
// write ends one that would print for hours; rows held for tablerender
// are bounded.
func TestTemplateIsBounded(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	ident := twin.Catalog().Entries(url.Values{"kind": {"game"}})[0].Ident
	for _, text := range []string{"{{range 100000000000}}x{{end}}", "{{range 100000000000}}{{$.ident}}\n{{end}}"} {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelOnWrite{cancel: cancel}
			code, errOut := runUntil(t, ctx, out, twin.URL, "get", "package", "game/"+ident, "--template", text)
			assert.Equal(t, message.ExitInterrupted, code, errOut)
			assert.NotEmpty(t, out.String())
		})
	}
	t.Run("tablerow", func(t *testing.T) {
		t.Parallel()
		code, out, errOut := cli(t, twin.URL, "get", "package", "game/"+ident, "--template", "{{range 100001}}{{tablerow $.ident}}{{end}}")
		assert.Equal(t, 1, code, errOut)
		assert.Contains(t, errOut, "tablerender")
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	})
}
