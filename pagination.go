package gamedata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"

	"github.com/google/go-querystring/query"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/manifest"
)

// Page is one page of a directory.
type Page[T any] struct {
	// Items are the page's entries, in the service's order.
	Items []T
	// Pagination is the page's pagination object.
	Pagination Pagination
	// Response is what the call that read the page learnt, as
	// WithResponseInto receives it. It is no part of the page's JSON:
	// MarshalJSON leaves it out and UnmarshalJSON leaves it zero.
	Response Response
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

// ListOptions selects a page of a directory: List reads that page, and All
// walks from it. The organization directory takes it alone;
// DashboardOptions embeds it. What only a walk uses is in WalkOptions.
type ListOptions struct {
	// Sort orders the directory; empty leaves the directory's default
	// order. The service does not name its sort parameter; the client
	// sends it as "sort", the name the service's public web pages use.
	// The service publishes no list of sorts, and it normalizes one it
	// does not support to the default silently, without an error: a
	// misspelt sort gives the default order, not the one asked for. A
	// directory response may say which sort it applied (read its Fields);
	// check the order of what comes back when it matters.
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
}

// WalkOptions are the settings of a directory walk by All that List has
// no use for. A nil *WalkOptions, or the zero value, means the defaults.
type WalkOptions struct {
	// MaxItems bounds the entries a walk reads, duplicates included and
	// an empty page counted as one; 0 means DefaultMaxItems, and a
	// negative bound is refused with ErrInvalidArgument. A walk that
	// would read more ends with a *PageError matching ErrWalkUnbounded at
	// the page that crossed the bound, none of whose entries it yielded:
	// a later walk can resume there. The bound is what keeps the memory of
	// a walk finite when a directory never ends, since a walk remembers
	// the identity of every entry it yielded (see DefaultMaxItems); there
	// is no "unlimited": give a bound above the directory's size.
	MaxItems int
	// Stats, when set, receives the counts of the walk; each iteration of
	// the walk resets it.
	Stats *WalkStats
}

// DefaultMaxItems is the bound on the entries a walk reads when
// WalkOptions.MaxItems is 0, and the bound of each round of
// Dashboard.Watch: ten times a directory of 100,000 entries. A walk
// remembers the identity of each entry it yielded, at about 56 bytes an
// entry (with Go 1.26), so at this bound it holds under 60 MB, and under
// MaxItems × 60 bytes at any other. Dashboard.Watch also keeps the
// entries of a round, each as sent.
const DefaultMaxItems = 1_000_000

// directory is one of the service's paginated directories.
type directory[T any] struct {
	endpoint manifest.Endpoint
	item     func([]byte) (T, error)
}

// maxPageSize is the service's documented limit on pageSize.
const maxPageSize = 100

// encodeQuery encodes an options struct through its `url` tags and adds
// params, the parameters the service takes but does not document. A name
// in params that a field of the struct already sends is refused, so a
// parameter is never sent twice by accident.
func encodeQuery(opts any, params url.Values) (url.Values, error) {
	q, err := query.Values(opts)
	if err != nil {
		return nil, fmt.Errorf("gamedata: encode query: %w", err)
	}
	for name, values := range params {
		if _, sent := q[name]; sent {
			return nil, invalidArgument("Params sets %q, which a field of %T already sends", name, opts)
		}
		q[name] = append(q[name], values...)
	}
	return q, nil
}

// checkPaging refuses a page or page size the service cannot serve, before
// any request is sent.
func checkPaging(page, pageSize int) error {
	switch {
	case page < 0:
		return invalidArgument("page %d, want 1 or more (0 means 1)", page)
	case pageSize < 0 || pageSize > maxPageSize:
		return invalidArgument("page size %d, want 1 to %d (0 means the service's default)", pageSize, maxPageSize)
	}
	return nil
}

// decodePage decodes a directory response, for the page requested (0
// when no page was asked for: the page is then the one the service says
// it served, if any), by these rules: the body is an
// object with a "pagination" object holding a boolean "hasNext"; the items
// are the array member beside it (when there are several arrays, the one
// named "items"); each item is decoded by item, whose error names the
// item's index. A pagination.page other than the page asked for is
// ErrPageOutOfRange.
func decodePage[T any](body []byte, requested int, item func([]byte) (T, error)) (*Page[T], error) {
	f, members, err := decodeFields(body)
	if err != nil {
		return nil, &DecodeError{Err: fmt.Errorf("directory response: %w", err)}
	}
	p := &Page[T]{Fields: f}
	pagination, ok := members["pagination"]
	if !ok {
		return nil, &DecodeError{Member: "pagination", Err: errors.New("directory response has no pagination object")}
	}
	if p.Pagination, err = decodePagination(pagination, requested); err != nil {
		return nil, err
	}
	name, err := itemsMember(members)
	if err != nil {
		return nil, &DecodeError{Err: err}
	}
	member := name
	if name != "items" {
		member = strconv.Quote(name)
	}
	if p.Items, err = decodeArray(members[name], member, item); err != nil {
		return nil, err
	}
	return p, nil
}

// decodePagination decodes a pagination object for the page requested,
// as decodePage does.
func decodePagination(raw []byte, requested int) (Pagination, error) {
	f, members, err := decodeFields(raw)
	if err != nil {
		return Pagination{}, &DecodeError{Member: "pagination", Err: err}
	}
	p := Pagination{Page: requested, Fields: f}
	switch hasNext := members["hasNext"]; string(hasNext) {
	case "true", "false":
		p.HasNext = string(hasNext) == "true"
	default:
		return Pagination{}, &DecodeError{Member: "pagination.hasNext", Err: fmt.Errorf("got %q, want a boolean", jsonscan.Clip(hasNext))}
	}
	if page, ok := members["page"]; ok && string(page) != "null" {
		served, err := strconv.Atoi(string(page))
		if err != nil {
			return Pagination{}, &DecodeError{Member: "pagination.page", Err: fmt.Errorf("got %s, want an integer", jsonscan.Clip(page))}
		}
		if requested != 0 && served != requested {
			return Pagination{}, fmt.Errorf("%w: asked for page %d, served page %d", ErrPageOutOfRange, requested, served)
		}
		p.Page = served
	}
	return p, nil
}

// itemsMember names a directory's array of items among the arrays beside
// its pagination, among the envelope's members. A name other than "items"
// was chosen by the service, so errors quote it.
func itemsMember(members map[string]json.RawMessage) (string, error) {
	var names []string
	for name, v := range members {
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

// WalkStats counts what a directory walk did. Pass one in the
// WalkOptions of All to read it after the walk; each walk resets it.
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

// walk yields every item of a directory from the page lo selects on,
// within the settings of wo, following hasNext, reading each page with
// query and the call options callOpts, up to prefetch pages ahead of the
// caller, and each identity (by identity) at most once. A
// WithResponseInto among callOpts receives each page's Response before
// that page's items, or its error, are yielded, never while a prefetched
// page is read. It
// stops at the first error, yielded as a *PageError so the caller can
// resume at that page. A redirect after the first page is handled by
// shrink. Pages that bring nothing new mean the service ignores the page
// parameter: the walk ends with ErrPageNotAdvancing instead of looping
// forever. A walk past a bound (walkBound) ends with ErrWalkUnbounded.
// Breaking out of the loop cancels pages in flight and returns only once
// they have stopped.
func walk[T any](ctx context.Context, lo ListOptions, wo WalkOptions, prefetch int, identity func(T) identity, shrink shrinkRule, cfg callConfig, query func(context.Context, ListOptions, callConfig) (*Page[T], error)) iter.Seq2[T, error] {
	first := firstPage(lo.Page)
	if wo.MaxItems < 0 {
		return failedWalk[T](first, invalidArgument("MaxItems %d, want 0 (the default, %d) or more", wo.MaxItems, DefaultMaxItems))
	}
	return func(yield func(T, error) bool) {
		var zero T
		into := cfg.into
		w := newWalker(lo, wo, identity)
		pages := newPrefetcher(ctx, first, prefetch, func(ctx context.Context, page int) pageResult[T] {
			lo := lo // a copy for each page: one walk may be iterated twice at once
			lo.Page = page
			// Each page fills its own Response, which the loop below
			// hands on when it reaches the page.
			var r pageResult[T]
			pageCfg := cfg
			pageCfg.into = &r.resp
			r.page, r.err = query(ctx, lo, pageCfg)
			return r
		})
		defer pages.Close()
		for page := first; ; page++ {
			r := pages.Next()
			p, err := r.page, r.err
			if into != nil {
				*into = r.resp
			}
			if err == nil {
				err = w.count(page, p)
			}
			if err != nil {
				if !shrunk(err, page > first, shrink) {
					yield(zero, &PageError{Page: page, Err: err})
				}
				return
			}
			if !w.yieldNew(p, yield) || !p.Pagination.HasNext {
				return
			}
			if w.stale == maxStalePages {
				yield(zero, &PageError{Page: page, Err: ErrPageNotAdvancing})
				return
			}
		}
	}
}

// failedWalk is the walk from page of a call refused before anything is
// sent: its one error.
func failedWalk[T any](page int, err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, &PageError{Page: firstPage(page), Err: err})
	}
}

// firstPage is the page a walk from page starts at: 0 means 1.
func firstPage(page int) int {
	if page == 0 {
		return 1
	}
	return page
}

// walkDirectory walks directory d of c from the page lo selects on,
// within wo, each page read with the walk's resolved call options cfg and
// the query that opts, given a page's ListOptions, encodes.
func walkDirectory[T any](ctx context.Context, c *Client, cfg callConfig, d directory[T], lo ListOptions, wo WalkOptions, identity func(T) identity, shrink shrinkRule, opts func(ListOptions) any) iter.Seq2[T, error] {
	return walk(ctx, lo, wo, c.prefetch, identity, shrink, cfg, func(ctx context.Context, lo ListOptions, cfg callConfig) (*Page[T], error) {
		lo, err := lo.paged()
		if err != nil {
			return nil, err
		}
		return listPage(ctx, c, cfg, d, lo, opts(lo))
	})
}

// shrunk tells whether err, met on a page after the first when later is
// true, means the directory shrank since the previous page promised more,
// and shrink says the walk then ends without an error.
func shrunk(err error, later bool, shrink shrinkRule) bool {
	var redirected *pageRedirectError
	return later && shrink == shrinkEnds && errors.As(err, &redirected)
}

// walker is what one walk keeps from page to page.
type walker[T any] struct {
	identity func(T) identity
	seen     *identitySet
	bound    *walkBound
	stats    *WalkStats
	// stale counts the non-empty pages in a row that brought nothing new.
	stale int
}

func newWalker[T any](lo ListOptions, wo WalkOptions, identity func(T) identity) *walker[T] {
	stats := wo.Stats // each iteration counts on its own unless the caller shares one
	if stats == nil {
		stats = &WalkStats{}
	}
	*stats = WalkStats{}
	return &walker[T]{identity: identity, seen: newIdentitySet(), bound: newWalkBound(lo.PageSize, wo.MaxItems), stats: stats}
}

// count counts page p, whose number is page, before any of its items is
// yielded; an error says the walk went out of bounds.
func (w *walker[T]) count(page int, p *Page[T]) error {
	w.stats.Pages++
	return w.bound.check(page, p.Pagination, len(p.Items))
}

// yieldNew yields the items of p the walk has not yielded yet, and
// reports false when the caller broke out.
func (w *walker[T]) yieldNew(p *Page[T], yield func(T, error) bool) bool {
	fresh := 0
	for _, it := range p.Items {
		if id := w.identity(it); !w.seen.add(id[:]...) {
			w.stats.Duplicates++
			continue
		}
		fresh++
		w.stats.Items++
		if !yield(it, nil) {
			return false
		}
	}
	if fresh > 0 || len(p.Items) == 0 {
		w.stale = 0
	} else {
		w.stale++
	}
	return true
}

// walkBound keeps a walk within what the service said of its directory and
// within WalkOptions.MaxItems, so a directory that never ends cannot make
// a walk run, or grow, forever.
type walkBound struct {
	maxItems int // WalkOptions.MaxItems, or DefaultMaxItems
	pageCap  int // the page size asked for, or the contract's maximum
	read     int // entries read, an empty page counted as one
	entries  int // entries read
	largest  int // the most entries a page held
}

// newWalkBound bounds a walk of pages of pageSize entries (0: the
// contract's maximum) to maxItems entries (0: DefaultMaxItems).
func newWalkBound(pageSize, maxItems int) *walkBound {
	b := &walkBound{maxItems: maxItems, pageCap: pageSize}
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
		return fmt.Errorf("%w: past WalkOptions.MaxItems, %d entries read (an empty page counts as one); raise MaxItems for a larger directory, or resume at this page", ErrWalkUnbounded, b.maxItems)
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

// identity names an entry in a walk: the concatenation of its parts.
// Kept in parts, so that naming an entry (kind "/" ident) allocates
// nothing.
type identity [3]string

// String is the identity as one string.
func (id identity) String() string { return id[0] + id[1] + id[2] }

// add reports whether the identity that parts make, concatenated, is
// new.
func (s *identitySet) add(parts ...string) bool {
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

// catchPanic runs f and returns what it panicked with, or nil. It runs in
// the goroutines the SDK starts, whose results carry the panic to the
// caller's goroutine.
func catchPanic(f func()) (p *PanicError) {
	defer func() {
		if v := recover(); v != nil {
			p = &PanicError{Value: v, Stack: debug.Stack()}
		}
	}()
	f()
	return nil
}

// prefetcher reads the pages of a walk, from first on, in order, with
// fetch. With ahead > 0 a goroutine fetches up to ahead pages before Next
// asks for them; it stops after a page that fails or has no next, or when
// Close is called.
type prefetcher[T any] struct {
	ctx     context.Context
	cancel  context.CancelFunc
	fetch   func(context.Context, int) pageResult[T]
	next    int                // the page Next returns
	results chan pageResult[T] // nil when nothing is fetched ahead
	done    chan struct{}      // closed when the goroutine has ended
}

type pageResult[T any] struct {
	page *Page[T]
	resp Response
	err  error
	// panicked is what a fetch in the goroutine panicked with, which
	// Next panics with in the caller's.
	panicked *PanicError
}

func newPrefetcher[T any](ctx context.Context, first, ahead int, fetch func(context.Context, int) pageResult[T]) *prefetcher[T] {
	ctx, cancel := context.WithCancel(ctx)
	p := &prefetcher[T]{ctx: ctx, cancel: cancel, fetch: fetch, next: first}
	if ahead > 0 {
		// An unbuffered channel already holds one page ahead: the
		// goroutine fetches page N+1 while the caller works on page N.
		p.results = make(chan pageResult[T], ahead-1)
		p.done = make(chan struct{})
		go p.run(first)
	}
	return p
}

func (p *prefetcher[T]) run(page int) {
	defer close(p.done)
	defer close(p.results)
	for ; ; page++ {
		var r pageResult[T]
		r.panicked = catchPanic(func() { r = p.fetch(p.ctx, page) })
		select {
		case p.results <- r:
		case <-p.ctx.Done():
			return
		}
		if r.panicked != nil || r.err != nil || !r.page.Pagination.HasNext {
			return
		}
	}
}

// Next returns the next page.
func (p *prefetcher[T]) Next() pageResult[T] {
	page := p.next
	p.next++
	if p.results != nil {
		if r, ok := <-p.results; ok {
			if r.panicked != nil {
				panic(r.panicked)
			}
			return r
		}
		// Only an ended walk asks past the last page sent: the fetch
		// below fails at once on the ended context, and its error names
		// the request as any other does.
	}
	return p.fetch(p.ctx, page)
}

// Close cancels the pages in flight and returns once they have stopped.
func (p *prefetcher[T]) Close() {
	p.cancel()
	if p.done != nil {
		<-p.done
	}
}

// listPage reads the page of d that lo selects, lo as paged returns it,
// with the query of opts, the options that hold lo, and the call's
// resolved options cfg. The page carries its Response, which cfg.into
// receives too.
func listPage[T any](ctx context.Context, c *Client, cfg callConfig, d directory[T], lo ListOptions, opts any) (*Page[T], error) {
	q, err := encodeQuery(opts, lo.Params)
	if err != nil {
		return nil, err
	}
	asked := cfg.into
	var resp Response
	cfg.into = &resp
	var p *Page[T]
	err = c.call(ctx, cfg, d.endpoint, q, func(b []byte) (err error) {
		p, err = decodePage(b, lo.Page, d.item)
		return err
	})
	if asked != nil {
		*asked = resp
	}
	if err != nil {
		return nil, err
	}
	p.Response = resp
	return p, nil
}

// paged checks the paging of lo before anything is sent, and returns it
// with page 0 made 1.
func (lo ListOptions) paged() (ListOptions, error) {
	if err := checkPaging(lo.Page, lo.PageSize); err != nil {
		return lo, err
	}
	lo.Page = max(lo.Page, 1)
	return lo, nil
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
