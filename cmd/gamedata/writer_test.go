package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
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

func fields(t *testing.T, docs ...string) []gamedata.Fields {
	t.Helper()
	out := make([]gamedata.Fields, len(docs))
	for i, d := range docs {
		require.NoError(t, json.Unmarshal([]byte(d), &out[i]), d)
	}
	return out
}

// A walk's CSV columns are chosen from its first page; a numeric member
// that first appears later is named on stderr once, not dropped silently.
func TestChosenColumnsSayWhatIsLeftOut(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	var notices []string
	w := newWriter(output{format: "csv", w: &out, batch: 2, known: []string{"ident"},
		notice: func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }})
	for _, f := range fields(t,
		`{"ident":"a","players":1,"mixed":"x"}`, `{"ident":"b","players":null,"mixed":2}`,
		`{"ident":"c","players":3,"peak":9,"mixed":3}`, `{"ident":"d","peak":4,"note":"text"}`) {
		require.NoError(t, w.write(f))
	}
	require.NoError(t, w.close())
	assert.Equal(t, "ident,players\na,1\nb,\nc,3\nd,\n", out.String())
	require.Len(t, notices, 1, "mixed was seen, and left out, when the columns were chosen")
	assert.Contains(t, notices[0], `"peak"`)
}

// A table is written a batch at a time, each padded to the widest cell
// seen so far: rows stay aligned across batches unless a later one is
// wider.
func TestTableBatches(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	w := newWriter(output{format: "table", w: &out, columns: []string{"ident", "players"}, batch: 2})
	recs := fields(t, `{"ident":"abc","players":1}`, `{"ident":"d","players":22}`, `{"ident":"e","players":3}`)
	require.NoError(t, w.write(recs[0]))
	assert.Empty(t, out.String(), "a batch is held until it is full")
	require.NoError(t, w.write(recs[1]))
	assert.Equal(t, "IDENT  PLAYERS\nabc    1\nd      22\n", out.String())
	require.NoError(t, w.write(recs[2]))
	require.NoError(t, w.close())
	assert.Equal(t, "IDENT  PLAYERS\nabc    1\nd      22\ne      3\n", out.String())
}
