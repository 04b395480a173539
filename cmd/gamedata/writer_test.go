package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileNames is a directory whose entries carry member names that would
// retitle the terminal and clear the screen, or be read by a spreadsheet
// as a formula, if they reached either as sent.
const hostileNames = `{"items":[{"kind":"game","ident":"a","title":"A",` +
	`"\u001b]0;pwned\u0007\u001b[2Jplayers":1,"=HYPERLINK(\"http://x\",\"y\")":2,"+sum":3,"@cmd":4}],` +
	`"pagination":{"hasNext":false}}`

// A member name the service sends becomes a CSV or table column header
// only through the sanitizer, and a CSV header cell gets the formula
// guard of a data cell.
func TestHeadersFromServiceNames(t *testing.T) {
	t.Parallel()
	base := fixed(t, map[string]answer{"/api/dashboard": {body: hostileNames}})
	for _, format := range []string{"csv", "table"} {
		code, out, errOut := cli(t, base, "list", "-o", format)
		require.Equal(t, 0, code, errOut)
		assertInert(t, out, format)
		header := strings.SplitN(out, "\n", 2)[0]
		if format == "csv" {
			assert.Contains(t, header, `\u001B]0;pwned\u0007\u001B[2Jplayers`, "the name is shown in its exact form")
			for _, c := range csvRows(t, out)[0] {
				assert.NotContains(t, "=+-@", c[:1], "header cell %q could be read as a formula", c)
			}
			continue
		}
		assert.Contains(t, header, "  PLAYERS  ", "the name is shown sanitized: its escape sequences are gone")
	}
}
