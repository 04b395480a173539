package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileTitle holds, raw in the body: an invalid byte 0x9B (CSI on an
// 8-bit terminal), an invalid 0xFF, an encoded C1 control (U+009B), DEL, a
// right-to-left override and a zero-width space.
const hostileTitle = "a\x9b31m b\xff c\u009b2J d\u007f e\u202eg h\u200bi"

// What hostileTitle decodes to once written: each invalid byte becomes
// U+FFFD, as encoding/json does; every valid character stays.
const hostileTitleDecoded = "a\ufffd31m b\ufffd c\u009b2J d\u007f e\u202eg h\u200bi"

// NDJSON and JSON output is valid UTF-8 with C1 controls, DEL, bidi and
// invisible characters escaped, and decodes to the strings sent, but for
// the invalid bytes.
func TestJSONOutputIsInert(t *testing.T) {
	t.Parallel()
	record := `{"kind":"game","ident":"x","title":"` + hostileTitle + `","players":null}`
	base := fixed(t, map[string]answer{
		"/api/packages/game/x": {body: record},
		"/api/dashboard":       {body: `{"items":[` + record + `],"pagination":{"hasNext":false}}`},
	})
	for _, args := range [][]string{
		{"get", "package", "game/x", "-o", "json"},
		{"get", "package", "game/x", "-o", "ndjson"},
		{"list", "-o", "json"},
		{"list", "-o", "ndjson"},
		{"export", "-o", "ndjson"},
	} {
		code, out, errOut := cli(t, base, args...)
		require.Equal(t, 0, code, "%v: %s", args, errOut)
		assertInert(t, out, strings.Join(args, " "))
		var v any
		require.NoError(t, json.Unmarshal([]byte(out), &v), "%v: one JSON value", args)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.Contains(line, `"title"`) {
				continue
			}
			var rec struct{ Title string }
			require.NoError(t, json.Unmarshal([]byte(strings.Trim(line, "[], ")), &rec), line)
			assert.Equal(t, hostileTitleDecoded, rec.Title, "%v", args)
		}
	}
}
