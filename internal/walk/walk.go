// Package walk holds the mechanics of a directory walk that need no
// client: pages read ahead in a goroutine, whose panics come back to the
// caller; the identities a walk has yielded; the bound that keeps the walk
// of a directory that never ends finite.
package walk

import (
	"context"
	"fmt"
	"hash/maphash"
	"runtime/debug"
	"strconv"
)

// Panic is what code run in a goroutine of the SDK panicked with, and the
// stack where it did, to be panicked with again in the caller's.
type Panic struct {
	Value any
	Stack []byte
}

// Catch runs f and returns what it panicked with, or nil.
func Catch(f func()) (p *Panic) {
	defer func() {
		if v := recover(); v != nil {
			p = &Panic{Value: v, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}

// Ahead reads the pages of a walk, from first on, in order, with fetch.
// With ahead > 0 a goroutine fetches up to ahead pages before Next asks
// for them; it stops after a page that last says is the last, or when
// Close is called.
type Ahead[R any] struct {
	ctx     context.Context
	cancel  context.CancelFunc
	fetch   func(context.Context, int) R
	last    func(R) bool
	next    int            // the page Next returns
	results chan result[R] // nil when nothing is fetched ahead
	done    chan struct{}  // closed when the goroutine has ended
}

type result[R any] struct {
	r        R
	panicked *Panic
}

// NewAhead starts reading ahead, with ctx, which Close cancels.
func NewAhead[R any](ctx context.Context, first, ahead int, fetch func(context.Context, int) R, last func(R) bool) *Ahead[R] {
	ctx, cancel := context.WithCancel(ctx)
	a := &Ahead[R]{ctx: ctx, cancel: cancel, fetch: fetch, last: last, next: first}
	if ahead > 0 {
		// An unbuffered channel already holds one page ahead: the
		// goroutine fetches page N+1 while the caller works on page N.
		a.results = make(chan result[R], ahead-1)
		a.done = make(chan struct{})
		go a.run(first)
	}
	return a
}

func (a *Ahead[R]) run(page int) {
	defer close(a.done)
	defer close(a.results)
	for ; ; page++ {
		var r result[R]
		r.panicked = Catch(func() { r.r = a.fetch(a.ctx, page) })
		select {
		case a.results <- r:
		case <-a.ctx.Done():
			return
		}
		if r.panicked != nil || a.last(r.r) {
			return
		}
	}
}

// Next returns the next page, or what its fetch panicked with in the
// goroutine.
func (a *Ahead[R]) Next() (R, *Panic) {
	page := a.next
	a.next++
	if a.results != nil {
		if r, ok := <-a.results; ok {
			return r.r, r.panicked
		}
		// Only an ended walk asks past the last page sent: the fetch
		// below fails at once on the ended context, and its error names
		// the request as any other does.
	}
	return a.fetch(a.ctx, page), nil
}

// Close cancels the pages in flight and returns once they have stopped.
func (a *Ahead[R]) Close() {
	a.cancel()
	if a.done != nil {
		<-a.done
	}
}

// Seen remembers the identities a walk has yielded, as 128-bit hashes: a
// 16-byte key an entry whatever the identity's length (about 56 bytes
// with the map's own overhead), and a chance of two identities colliding
// below 10^-28 for a million entries.
type Seen struct {
	seeds [2]maphash.Seed
	seen  map[[2]uint64]struct{}
}

// NewSeen returns an empty Seen.
func NewSeen() *Seen {
	return &Seen{
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		seen:  make(map[[2]uint64]struct{}),
	}
}

// Add reports whether the identity that parts make, concatenated, is new,
// and remembers it.
func (s *Seen) Add(parts ...string) bool {
	key := [2]uint64{hashParts(s.seeds[0], parts), hashParts(s.seeds[1], parts)}
	if _, ok := s.seen[key]; ok {
		return false
	}
	s.seen[key] = struct{}{}
	return true
}

// hashParts is the hash of parts, concatenated, with seed.
func hashParts(seed maphash.Seed, parts []string) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, part := range parts {
		h.WriteString(part)
	}
	return h.Sum64()
}

// Bound keeps a walk within what the service said of its directory and
// within a number of entries, so a directory that never ends cannot make
// a walk run, or grow, forever.
type Bound struct {
	maxItems int
	pageCap  int // the most entries a page may hold
	read     int // entries read, an empty page counted as one
	entries  int // entries read
	largest  int // the most entries a page held
}

// NewBound bounds a walk of pages of at most pageCap entries to maxItems
// entries.
func NewBound(pageCap, maxItems int) *Bound { return &Bound{maxItems: maxItems, pageCap: pageCap} }

// Totals are what a page says of its directory: its number of pages and
// of entries, each -1 when the page does not say.
type Totals struct{ Pages, Entries float64 }

// Check counts page, which holds n entries and says totals, before any of
// its entries is yielded, and says when the walk went out of bounds. The
// totals are taken from the page itself, the service's latest word, with
// one page of slack for a directory that grew while the walk ran.
func (b *Bound) Check(page, n int, totals Totals) error {
	if n > b.pageCap {
		return fmt.Errorf("the page holds %d entries, more than the %d a page may hold: not a directory the service's contract describes", n, b.pageCap)
	}
	b.read += max(n, 1)
	b.entries += n
	b.largest = max(b.largest, n)
	if b.read > b.maxItems {
		return fmt.Errorf("past WalkOptions.MaxItems, %d entries read (an empty page counts as one); raise MaxItems for a larger directory, or resume at this page", b.maxItems)
	}
	if totals.Pages >= 0 && float64(page) > totals.Pages+1 {
		return fmt.Errorf("more than one page past the %s pages the service says it has (pagination.totalPages)", strconv.FormatFloat(totals.Pages, 'f', -1, 64))
	}
	if totals.Entries >= 0 && float64(b.entries) > totals.Entries+float64(b.largest) {
		return fmt.Errorf("%d entries read, more than one page past the %s entries the service says it has (pagination.total)", b.entries, strconv.FormatFloat(totals.Entries, 'f', -1, 64))
	}
	return nil
}
