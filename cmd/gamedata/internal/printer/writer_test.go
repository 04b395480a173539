package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
	w := New(Options{Format: "csv", Out: &out, Batch: 2, Known: []string{"ident"},
		Notice: func(format string, args ...any) { notices = append(notices, fmt.Sprintf(format, args...)) }})
	for _, f := range fields(t,
		`{"ident":"a","players":1,"mixed":"x"}`, `{"ident":"b","players":null,"mixed":2}`,
		`{"ident":"c","players":3,"peak":9,"mixed":3}`, `{"ident":"d","peak":4,"note":"text"}`) {
		require.NoError(t, w.Write(f))
	}
	require.NoError(t, w.Close())
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
	w := New(Options{Format: "table", Out: &out, Columns: []string{"ident", "players"}, Batch: 2})
	recs := fields(t, `{"ident":"abc","players":1}`, `{"ident":"d","players":22}`, `{"ident":"e","players":3}`)
	require.NoError(t, w.Write(recs[0]))
	assert.Empty(t, out.String(), "a batch is held until it is full")
	require.NoError(t, w.Write(recs[1]))
	assert.Equal(t, "IDENT  PLAYERS\nabc    1\nd      22\n", out.String())
	require.NoError(t, w.Write(recs[2]))
	require.NoError(t, w.Close())
	assert.Equal(t, "IDENT  PLAYERS\nabc    1\nd      22\ne      3\n", out.String())
}
