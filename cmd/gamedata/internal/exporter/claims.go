package exporter

import "crypto/sha256"

// owners holds, for the label values of each entry given series so far,
// the identity as sent of the entry they belong to. The first entry to
// claim a set of labels keeps it: of two entries whose labels sanitize
// alike, the first is exported and the other left out. The exporter and
// backfill both choose through claim, so a backfilled series and the
// scraped series that continues it are the same package's.
type owners map[string][sha256.Size]byte

// claim is what owners.claim decided for an entry.
type claim int

const (
	// claimed: the labels were free and are now the entry's.
	claimed claim = iota
	// repeated: the labels are already the entry's own (a package named
	// and also in a walk).
	repeated
	// taken: the labels are another entry's, whose labels sanitize alike.
	taken
)

// claim gives it its labels when no entry has them yet.
func (o owners) claim(it item) claim {
	key := it.labels()
	was, ok := o[key]
	switch {
	case !ok:
		o[key] = it.identity
		return claimed
	case was == it.identity:
		return repeated
	}
	return taken
}
