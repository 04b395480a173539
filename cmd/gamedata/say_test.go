package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every line on stderr that quotes the service quotes it through the
// sanitizer: a member name in a decode error, a body in an API error.
func TestErrorLinesFromServiceText(t *testing.T) {
	t.Parallel()
	base := fixed(t, map[string]answer{
		"/api/dashboard":       {body: `{"\u001b]0;pwned\u0007items":[1],"pagination":{"hasNext":false}}`},
		"/api/packages/game/x": {status: 404, body: `{"error":"\u001b]0;pwned\u0007\u001b[2J gone \u009b31m"}`},
	})
	for _, args := range [][]string{
		{"list"},
		{"get", "package", "game/x"},
	} {
		code, _, errOut := cli(t, base, args...)
		assert.Equal(t, 1, code, "%v: %s", args, errOut)
		assertInert(t, errOut, "stderr of "+args[0])
		assert.Contains(t, errOut, "gamedata: ", "%v", args)
	}
}
