package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGet(t *testing.T) {
	t.Parallel()
	twin := newTwin(t)
	cat := twin.Catalog()
	pkg, srv, org := cat.Packages[0], cat.Servers[0], cat.Organizations[0]
	for _, tt := range []struct {
		args  []string
		key   string
		value any
	}{
		{[]string{"get", "package", pkg.Kind + "/" + pkg.Ident}, "ident", pkg.Ident},
		{[]string{"get", "server", srv.ID}, "id", srv.ID},
		{[]string{"get", "org", org.Ident}, "ident", org.Ident},
	} {
		code, out, errOut := cli(t, twin.URL, append(tt.args, "-o", "json")...)
		require.Equal(t, 0, code, errOut)
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &rec))
		assert.Equal(t, tt.value, rec[tt.key], "%v", tt.args)
	}
}

// get parses its arguments into its options before anything is sent.
func TestGetOptions(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want getOptions
	}{
		{[]string{"get", "package", "game/a/b"}, getOptions{Type: "package", Kind: "game", Ident: "a/b"}},
		{[]string{"get", "server", "192.0.2.1:27015"}, getOptions{Type: "server", ID: "192.0.2.1:27015"}},
		{[]string{"get", "organization", "acme"}, getOptions{Type: "org", Ident: "acme"}},
	} {
		p, err := parseArgs(t, tt.args...)
		require.NoError(t, err, "%v", tt.args)
		got := *p.opts.(*getOptions)
		got.common = common{}
		assert.Equal(t, tt.want, got, "%v", tt.args)
	}
}
