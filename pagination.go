package gamedata

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/url"
	"slices"
	"strconv"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// Page is one page of a directory.
type Page[T any] struct {
	// Items are the page's entries, in the service's order.
	Items []T
	// Pagination is the page's pagination object.
	Pagination Pagination
	// Fields holds the whole response envelope, items and pagination
	// included, as the service sent it.
	Fields
}

// Pagination is a directory's pagination object.
type Pagination struct {
	// HasNext is true while a further page exists.
	HasNext bool
	// Page is the one-based page served: the service's own pagination.page
	// when it sends one (the client checks it is the page asked for), or
	// else the page asked for.
	Page int
	// Fields holds every member of the pagination object, such as a total
	// or a page size, which the service does not document.
	Fields
}

// ListOptions selects a page of a directory, and how a walk of it
// counts. The organization directory takes it alone; DashboardOptions
// embeds it.
type ListOptions struct {
	// Sort orders the directory. The service does not name its sort
	// parameter; the client sends it as "sort", the name the service's
	// public web pages use. The service publishes no list of sorts, and it
	// normalizes one it does not support to the directory default
	// silently, without an error: a misspelt sort gives the default
	// order, not the one asked for. The twin (gamedatatest) sorts the
	// dashboard by "ident" (its default), "name", "players" and "updated",
	// and organizations by "ident", "name" and "packages": examples, not
	// a promise about the live service. Check the order of what comes
	// back when it matters.
	Sort string `url:"sort,omitempty"`
	// Page is the one-based page; 0 means 1. It is always sent.
	Page int `url:"page"`
	// PageSize is the number of entries a page, at most 100; 0 leaves it to
	// the service.
	PageSize int `url:"pageSize,omitempty"`
	// Filters are sent as repeated filter parameters, which the service
	// combines. An unsupported filter is normalized to the default.
	Filters []string `url:"filter,omitempty"`
	// Params carries query parameters the service takes but does not
	// document. It may not repeat a parameter that a field above sends.
	Params url.Values `url:"-"`
	// Stats, when set, receives the counts of a walk by All.
	Stats *WalkStats `url:"-"`
	// MaxItems bounds the entries a walk reads, duplicates included and
	// an empty page counted as one; 0 means DefaultMaxItems. A walk that
	// would read more ends with a *PageError matching ErrWalkUnbounded at
	// the page that crossed the bound, none of whose entries it yielded:
	// a later walk can resume there. The bound is what keeps the memory of
	// a walk finite when a directory never ends, since a walk remembers
	// the identity of every entry it yielded (see DefaultMaxItems); there
	// is no "unlimited": give a bound above the directory's size.
	MaxItems int `url:"-"`
}

// DefaultMaxItems is the bound on the entries a walk reads when
// ListOptions.MaxItems is 0: ten times a directory of 100,000 entries. A
// walk remembers the identity of each entry it yielded, at about 56 bytes
// an entry (a 128-bit hash in a Go map; measured with Go 1.26 by
// BenchmarkWalkBound), so at this bound the set stays under 60 MB, and
// under MaxItems × 60 bytes at any other. Dashboard.Watch also keeps the
// entries of a round, each as sent.
const DefaultMaxItems = 1_000_000

func (o *ListOptions) list() *ListOptions { return o }

// listOptions is what the options of every directory have, through the
// ListOptions they are or embed. A directory's functions take the options
// by value and reach their ListOptions through a pointer to that copy, P.
type listOptions[O any] interface {
	*O
	list() *ListOptions
}

// directory is one of the service's paginated directories.
type directory[T any] struct {
	path     []string
	item     func([]byte) (T, error)
	identity func(T) string
}

// decodePage decodes a directory response by these rules: the body is an
// object with a "pagination" object holding a boolean "hasNext"; the items
// are the array member beside it (when there are several arrays, the one
// named "items"); each item is decoded by item, whose error names the
// item's index. A pagination.page other than the page asked for is
// ErrPageOutOfRange.
func decodePage[T any](body []byte, requested int, item func([]byte) (T, error)) (*Page[T], error) {
	f, err := decodeFields(body)
	if err != nil {
		return nil, &DecodeError{Err: fmt.Errorf("directory response: %w", err)}
	}
	p := &Page[T]{Fields: f}
	pagination, ok := f.members()["pagination"]
	if !ok {
		return nil, &DecodeError{Member: "pagination", Err: errors.New("directory response has no pagination object")}
	}
	if p.Pagination, err = decodePagination(pagination, requested); err != nil {
		return nil, err
	}
	name, err := itemsMember(f)
	if err != nil {
		return nil, &DecodeError{Err: err}
	}
	member := name
	if name != "items" {
		member = strconv.Quote(name)
	}
	if p.Items, err = decodeArray(f.members()[name], member, item); err != nil {
		return nil, err
	}
	return p, nil
}

func decodePagination(raw []byte, requested int) (Pagination, error) {
	f, err := decodeFields(raw)
	if err != nil {
		return Pagination{}, &DecodeError{Member: "pagination", Err: err}
	}
	p := Pagination{Page: requested, Fields: f}
	switch hasNext := f.members()["hasNext"]; string(hasNext) {
	case "true", "false":
		p.HasNext = string(hasNext) == "true"
	default:
		return Pagination{}, &DecodeError{Member: "pagination.hasNext", Err: fmt.Errorf("got %q, want a boolean", jsonscan.Clip(hasNext))}
	}
	if page, ok := f.members()["page"]; ok && string(page) != "null" {
		served, err := strconv.Atoi(string(page))
		if err != nil {
			return Pagination{}, &DecodeError{Member: "pagination.page", Err: fmt.Errorf("got %s, want an integer", jsonscan.Clip(page))}
		}
		if served != requested {
			return Pagination{}, fmt.Errorf("%w: asked for page %d, served page %d", ErrPageOutOfRange, requested, served)
		}
	}
	return p, nil
}

// itemsMember names a directory's array of items among the arrays beside
// its pagination. A name other than "items" was chosen by the service, so
// errors quote it.
func itemsMember(f Fields) (string, error) {
	var names []string
	for name, v := range f.members() {
		if name != "pagination" && v[0] == '[' {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	switch {
	case len(names) == 1:
		return names[0], nil
	case slices.Contains(names, "items"):
		return "items", nil
	case len(names) == 0:
		return "", errors.New("directory response has no array of items beside pagination")
	}
	return "", fmt.Errorf("directory response has several arrays (%s) and none is named items", quotedNames(names))
}

// WalkStats counts what a directory walk did. Pass one in the options of
// All to read it after the walk; each walk resets it.
type WalkStats struct {
	// Pages is the number of pages read.
	Pages int
	// Items is the number of items yielded.
	Items int
	// Duplicates is the number of items dropped because the walk had
	// already yielded an item of the same identity (kind and ident, or
	// server id): entries moved between pages while the walk ran, as they
	// do under a sort by live player counts. A walk that must see every
	// entry exactly once should use a stable sort, such as the default.
	Duplicates int
}

// maxStalePages is how many non-empty pages in a row may bring nothing new
// before a walk decides the service ignores the page parameter.
const maxStalePages = 3

// shrinkRule says what a walk does when a page after its first is
// redirected, which means the directory shrank since the previous page
// promised more.
type shrinkRule int

const (
	// shrinkEnds ends the walk there without an error: All yields what
	// the directory still holds.
	shrinkEnds shrinkRule = iota
	// shrinkFails yields the redirect as the walk's error, so that a walk
	// that ends without one always ended on hasNext false: a Watch round
	// must have seen the whole directory before it reports what is gone.
	shrinkFails
)

// walk yields every item of directory d from the page opts select on,
// following hasNext, with the client's prefetch pages fetched ahead of the
// caller, and each identity at most once. It stops at the first error, yielded as a
// *PageError so the caller can resume at that page. A redirect after the
// first page is handled by shrink. Pages that bring nothing new mean the
// service ignores the page parameter: the walk ends with
// ErrPageNotAdvancing instead of looping forever. A walk past a bound
// (walkBound) ends with ErrWalkUnbounded. Breaking out of the loop
// cancels pages in flight and returns only once they have stopped.
func walk[T, O any, P listOptions[O]](ctx context.Context, s *service, mode cacheMode, d directory[T], opts O, shrink shrinkRule) iter.Seq2[T, error] {
	lo := P(&opts).list()
	first := lo.Page
	if first == 0 {
		first = 1
	}
	fetch := func(ctx context.Context, page int) (*Page[T], error) {
		o := opts // a copy for each page: one walk may be iterated twice at once
		P(&o).list().Page = page
		return listPage[T, O, P](ctx, s, mode, d, o)
	}
	return func(yield func(T, error) bool) {
		var zero T
		if lo.MaxItems < 0 {
			yield(zero, &PageError{Page: first, Err: invalidArgument("MaxItems %d, want 0 (the default, %d) or more", lo.MaxItems, DefaultMaxItems)})
			return
		}
		stats := lo.Stats // each iteration counts on its own unless the caller shares one
		if stats == nil {
			stats = &WalkStats{}
		}
		*stats = WalkStats{}
		ctx, cancel := context.WithCancel(ctx)
		next, wait := pages(ctx, first, s.prefetch(), fetch)
		defer func() {
			cancel()
			wait()
		}()

		seen := newIdentitySet()
		bound := newWalkBound(lo)
		stale := 0
		for page := first; ; page++ {
			p, err := next()
			if err != nil {
				var redirected *pageRedirectError
				if errors.As(err, &redirected) && page > first && shrink == shrinkEnds {
					return
				}
				yield(zero, &PageError{Page: page, Err: err})
				return
			}
			stats.Pages++
			if err := bound.check(page, p.Pagination, len(p.Items)); err != nil {
				yield(zero, &PageError{Page: page, Err: err})
				return
			}
			fresh := 0
			for _, it := range p.Items {
				if !seen.add(d.identity(it)) {
					stats.Duplicates++
					continue
				}
				fresh++
				stats.Items++
				if !yield(it, nil) {
					return
				}
			}
			if stale = stale + 1; fresh > 0 || len(p.Items) == 0 {
				stale = 0
			}
			if stale == maxStalePages && p.Pagination.HasNext {
				yield(zero, &PageError{Page: page, Err: ErrPageNotAdvancing})
				return
			}
			if !p.Pagination.HasNext {
				return
			}
		}
	}
}

// walkBound keeps a walk within what the service said of its directory and
// within ListOptions.MaxItems, so a directory that never ends cannot make
// a walk run, or grow, forever.
type walkBound struct {
	maxItems int // ListOptions.MaxItems, or DefaultMaxItems
	pageCap  int // the page size asked for, or the contract's maximum
	read     int // entries read, an empty page counted as one
	entries  int // entries read
	largest  int // the most entries a page held
}

func newWalkBound(lo *ListOptions) *walkBound {
	b := &walkBound{maxItems: lo.MaxItems, pageCap: lo.PageSize}
	if b.maxItems == 0 {
		b.maxItems = DefaultMaxItems
	}
	if b.pageCap == 0 {
		b.pageCap = maxPageSize
	}
	return b
}

// check counts page, which holds n entries and p, before any of its
// entries is yielded; an error matches ErrWalkUnbounded. The service's own
// totals (pagination.totalPages and pagination.total, as numbers; it does
// not document them) are taken from the page itself, its latest word, with
// one page of slack for a directory that grew while the walk ran.
func (b *walkBound) check(page int, p Pagination, n int) error {
	if n > b.pageCap {
		return fmt.Errorf("%w: the page holds %d entries, more than the %d a page may hold: not a directory the service's contract describes", ErrWalkUnbounded, n, b.pageCap)
	}
	b.read += max(n, 1)
	b.entries += n
	b.largest = max(b.largest, n)
	if b.read > b.maxItems {
		return fmt.Errorf("%w: past ListOptions.MaxItems, %d entries read (an empty page counts as one); raise MaxItems for a larger directory, or resume at this page", ErrWalkUnbounded, b.maxItems)
	}
	if total, ok := count(p, "totalPages"); ok && float64(page) > total+1 {
		return fmt.Errorf("%w: more than one page past the %s pages the service says it has (pagination.totalPages)", ErrWalkUnbounded, strconv.FormatFloat(total, 'f', -1, 64))
	}
	if total, ok := count(p, "total"); ok && float64(b.entries) > total+float64(b.largest) {
		return fmt.Errorf("%w: %d entries read, more than one page past the %s entries the service says it has (pagination.total)", ErrWalkUnbounded, b.entries, strconv.FormatFloat(total, 'f', -1, 64))
	}
	return nil
}

// count reads a pagination member that counts something: a number, 0 or
// more. Anything else the service sends there says nothing.
func count(p Pagination, name string) (float64, bool) {
	v, ok := p.Metric(name).Get()
	return v, ok && v >= 0
}

// identitySet remembers the identities a walk has yielded, as 128-bit
// hashes: a 16-byte key an entry whatever the identity's length (about 56
// bytes with the map's own overhead), and a chance of two identities
// colliding below 10^-28 for a million entries.
type identitySet struct {
	seeds [2]maphash.Seed
	seen  map[[2]uint64]struct{}
}

func newIdentitySet() *identitySet {
	return &identitySet{
		seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		seen:  make(map[[2]uint64]struct{}),
	}
}

// add reports whether id is new.
func (s *identitySet) add(id string) bool {
	key := [2]uint64{maphash.String(s.seeds[0], id), maphash.String(s.seeds[1], id)}
	if _, ok := s.seen[key]; ok {
		return false
	}
	s.seen[key] = struct{}{}
	return true
}

// pages returns the pages from first on, in order, through next. With
// prefetch > 0 a goroutine fetches up to prefetch pages ahead; it stops
// after a page that fails or has no next, or when ctx is cancelled. wait
// waits for it to end; cancel ctx first.
func pages[T any](ctx context.Context, first, prefetch int, fetch func(context.Context, int) (*Page[T], error)) (next func() (*Page[T], error), wait func()) {
	if prefetch == 0 {
		page := first
		return func() (*Page[T], error) {
			p, err := fetch(ctx, page)
			page++
			return p, err
		}, func() {}
	}
	type result struct {
		page *Page[T]
		err  error
	}
	// An unbuffered channel already holds one page ahead: the goroutine
	// fetches page N+1 while the caller works on page N.
	results := make(chan result, prefetch-1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(results)
		for page := first; ; page++ {
			p, err := fetch(ctx, page)
			select {
			case results <- result{p, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || !p.Pagination.HasNext {
				return
			}
		}
	}()
	page := first
	return func() (*Page[T], error) {
			r, ok := <-results
			if !ok {
				// Only an ended walk asks past the last page sent: the
				// fetch fails at once on the ended context, and its error
				// names the request as any other does.
				return fetch(ctx, page)
			}
			page++
			return r.page, r.err
		}, func() {
			<-done
		}
}

// listPage reads the page of d that opts select (page 0 means 1), having
// checked the paging before sending anything.
func listPage[T, O any, P listOptions[O]](ctx context.Context, s *service, mode cacheMode, d directory[T], opts O) (*Page[T], error) {
	lo := P(&opts).list()
	if err := checkPaging(lo.Page, lo.PageSize); err != nil {
		return nil, err
	}
	lo.Page = max(lo.Page, 1)
	q, err := encodeQuery(opts, lo.Params)
	if err != nil {
		return nil, err
	}
	var p *Page[T]
	err = s.get(ctx, mode, q, func(b []byte) (err error) {
		p, err = decodePage(b, lo.Page, d.item)
		return err
	}, d.path...)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// valueOf returns *p, or the zero T for a nil p: nil options mean the
// defaults.
func valueOf[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}
