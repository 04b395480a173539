package store

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/pgtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Entries whose identity the database cannot keep as sent are refused
// by name, never merged with another nor blocking the batch: idents
// "x\x00y" and "x\ufffdy" stay two (the first refused, the second
// stored as sent), and a key or member name of 3,000 bytes, which a
// PostgreSQL index cannot hold, is refused while the rest is stored. A
// failure named by such a key is recorded too.
func TestOddKeysAreStoredOrRefused(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 3000)
	pgtest.EachDB(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		db := open(t, dsn)
		longMember := entry("long-member", false, map[string]any{long: 1.0, "players": 2.0})
		r, c, _ := run(t, db, day0,
			entry("x\x00y", false, map[string]any{"players": 1.0}),
			entry("x\ufffdy", false, map[string]any{"players": 2.0}),
			entry(long, false, map[string]any{"players": 3.0}),
			longMember,
			entry("bad-member", false, map[string]any{"a\x00": 4.0, "a\ufffd": 5.0}),
			entry("plain", false, map[string]any{"players": 6.0}),
		)
		assert.Equal(t, 2, c.New)
		var refused []string
		for _, f := range c.Refused {
			refused = append(refused, clip(f.Ident)+": "+f.Err.Error())
		}
		assert.Equal(t, []string{
			"x\x00y: its ident holds a NUL byte or invalid UTF-8, which the database cannot keep apart from other text; not stored",
			clip(long) + ": its key is 3004 bytes, more than the 1000 the database's indexes hold; not stored",
			"long-member: its member " + clip(strconv.Quote(long)) + " is 3000 bytes long, more than the 1000 the database's indexes hold; not stored",
			`bad-member: its member "a\x00" holds a NUL byte or invalid UTF-8, which the database cannot keep apart from other names; not stored`,
		}, refused)
		assert.Equal(t, map[string]string{"x\ufffdy.players": "2", "plain.players": "6"}, valuesAt(t, db, r.ID))
		assert.Equal(t, 2, count(t, db, `SELECT COUNT(*) FROM directory`))

		for _, f := range c.Refused {
			require.NoError(t, db.RecordFailure(ctx, r, "directory", "game/"+f.Ident, f.Err.Error(), day0))
		}
		assert.Equal(t, len(c.Refused), count(t, db, `SELECT COUNT(*) FROM failures`))
		assert.Equal(t, 1, count(t, db, `SELECT COUNT(*) FROM failures WHERE item LIKE ?`, "game/aaaa%(3005 bytes, sha256 %)"))

		_, c, _ = run(t, db, day0.Add(time.Hour), entry("plain", false, map[string]any{"players": 7.0}), entry(long, false, nil))
		assert.Len(t, c.Refused, 1, "the next run goes on the same way")
	})
}
