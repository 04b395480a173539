package store

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
)

// SaveEntries writes in multi-row statements of a power of two rows: a
// batch of any size is written whole, and an entry listed twice in one
// batch ends as its later listing, as a statement per row left it
// (PostgreSQL refuses one statement that upserts a row twice).
func TestSaveEntriesBatches(t *testing.T) {
	t.Parallel()
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		db := open(t, dsn)
		var entries []Entry
		for i := range 300 { // 256 + 32 + 8 + 4 rows
			entries = append(entries, entry(fmt.Sprintf("g%03d", i), false, map[string]any{"players": float64(i)}))
		}
		// g010 again, in the first statement's rows.
		entries = slices.Insert(entries, 11, entry("g010", false, map[string]any{"players": 700.0}))
		r, _, _ := run(t, db, day0, entries...)
		assert.Equal(t, 300, count(t, db, `SELECT COUNT(*) FROM directory`))
		assert.Equal(t, 300, count(t, db, `SELECT COUNT(*) FROM directory_values`))
		got := valuesAt(t, db, r.ID)
		assert.Equal(t, "700", got["g010.players"], "the later listing, in the same statement as the first")
		assert.Equal(t, "299", got["g299.players"])

		// A second run over the same batch adds one series row (g010's
		// first listing differs from the last value written, 700, as it
		// would a row at a time), and rolls the first hour up in chunks
		// of members.
		run(t, db, day0.Add(time.Hour), entries...)
		assert.Equal(t, 301, count(t, db, `SELECT COUNT(*) FROM directory_values`))
		assert.Equal(t, 300, count(t, db, `SELECT COUNT(*) FROM directory_rollups WHERE period = 3600`))
		assert.Equal(t, 700, count(t, db, `SELECT CAST(max_value AS INTEGER) FROM directory_rollups WHERE ident = 'g010'`))
	})
}
