package peers

import "testing"

// TestPeersAgree runs each comparison's check: every client, against one
// twin, decoded the same data as the twin served (the same number of
// points or entries, the same first and last), so that the benchmarks
// compare equal work. The benchmarks run the same check on their larger
// twin before timing; this one is smaller to keep a test run short under
// -race.
func TestPeersAgree(t *testing.T) {
	twin := newTwin(t, 500, 10_000)
	t.Run("activity", func(t *testing.T) { activityComparison(t, twin).check(t) })
	t.Run("package", func(t *testing.T) {
		kind, ident := smallRecord(twin.Catalog())
		packageComparison(t, twin, kind, ident).check(t)
	})
	t.Run("walk", func(t *testing.T) { walkComparison(t, twin).check(t) })
}
