package exporter

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/gamedatatest"
)

// bigTitle is the length of the titles the twin sends in the tests of
// what the exporter holds: 100 KB.
const bigTitle = 100 << 10

// heldAfterPoll polls entries game packages whose titles are bigTitle
// long, and returns the bytes the exporter holds after the poll (the live
// heap with the exporter reachable less the live heap once it is not;
// the twin, which holds the titles, and the client, without a cache, stay
// reachable throughout) and the body bytes the twin sent.
func heldAfterPoll(t testing.TB, entries int) (held, sent int64) {
	t.Helper()
	twin := newTwin(t, gamedatatest.WithSize(0, 0, 0))
	title := strings.Repeat("Neon Harbor ", bigTitle/12)
	for i := range entries {
		if err := twin.AddPackage(gamedata.KindGame, "big-"+strconv.Itoa(i), title); err != nil {
			t.Fatal(err)
		}
	}
	c := newClient(t, twin.URL, gamedata.WithCache(nil))
	e, _, _ := newExporter(t, c, Config{Kinds: []string{gamedata.KindGame}})
	poll(t, e)
	if got := len(samples(t, e, "gamedata_package_info")); got != entries {
		t.Fatalf("%d packages exported, want %d", got, entries)
	}
	for _, r := range twin.Requests() {
		sent += int64(r.Bytes)
	}

	with := heapAfterGC()
	runtime.KeepAlive(e)
	e = nil
	without := heapAfterGC()
	runtime.KeepAlive(c)
	runtime.KeepAlive(twin)
	return int64(with) - int64(without), sent
}

// heapAfterGC is the bytes of live heap objects after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestRetainedBytesFollowSeries polls packages with 100 KB titles: what
// the exporter holds after the poll follows the series it exports, whose
// title labels are cut to maxLabelRunes, not the bytes the service sent.
// Not parallel: another test's heap would blur the measure.
func TestRetainedBytesFollowSeries(t *testing.T) {
	const (
		entries = 100
		// perEntry bounds what one exported package may hold: its few
		// series, a title label of at most maxLabelRunes runes, and what
		// the exporter keeps to build them at the next poll.
		perEntry = 16 << 10
	)
	held, sent := heldAfterPoll(t, entries)
	t.Logf("the exporter holds %d bytes after a poll of %d entries (%d bytes sent): %d bytes an entry",
		held, entries, sent, held/entries)
	if held > entries*perEntry {
		t.Errorf("the exporter holds %d bytes after a poll of %d entries, %d an entry; want at most %d an entry",
			held, entries, held/entries, perEntry)
	}
}
