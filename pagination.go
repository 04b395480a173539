package gamedata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"

	"github.com/google/go-querystring/query"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
	"github.com/gamedata-go/gamedata/internal/manifest"
	"github.com/gamedata-go/gamedata/internal/walk"
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

// walkPages yields every item of a directory from the page lo selects on,
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
func walkPages[T any](ctx context.Context, lo ListOptions, wo WalkOptions, prefetch int, identity func(T) identity, shrink shrinkRule, cfg callConfig, query func(context.Context, ListOptions, callConfig) (*Page[T], error)) iter.Seq2[T, error] {
	first := firstPage(lo.Page)
	return func(yield func(T, error) bool) {
		var zero T
		if wo.MaxItems < 0 {
			yield(zero, &PageError{Page: first, Err: invalidArgument("MaxItems %d, want 0 (the default, %d) or more", wo.MaxItems, DefaultMaxItems)})
			return
		}
		into := cfg.into
		w := newWalker(lo, wo, identity)
		pages := walk.NewAhead(ctx, first, prefetch, func(ctx context.Context, page int) pageResult[T] {
			lo := lo // a copy for each page: one walk may be iterated twice at once
			lo.Page = page
			// Each page fills its own Response, which the loop below
			// hands on when it reaches the page.
			var r pageResult[T]
			pageCfg := cfg
			pageCfg.into = &r.resp
			r.page, r.err = query(ctx, lo, pageCfg)
			return r
		}, pageResult[T].last)
		defer pages.Close()
		for page := first; ; page++ {
			r, panicked := pages.Next()
			if panicked != nil {
				panic(&PanicError{Value: panicked.Value, Stack: panicked.Stack})
			}
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

// list reads the page of directory d that lo selects, with the query
// opts(lo) encodes and the call options callOpts: List.
func list[T any](ctx context.Context, s *service, callOpts []CallOption, d directory[T], lo ListOptions, opts func(ListOptions) any) (*Page[T], error) {
	lo, err := lo.paged()
	if err != nil {
		return nil, err
	}
	c, cfg, err := s.resolve(ctx, callOpts)
	if err != nil {
		return nil, err
	}
	return listPage(ctx, c, cfg, d, lo, opts(lo))
}

// all walks directory d from the page lo selects on, within wo, with the
// query opts encodes for each page and the call options callOpts: All.
// Options that are refused make a walk of that one error.
func all[T any](ctx context.Context, s *service, callOpts []CallOption, d directory[T], lo ListOptions, wo WalkOptions, identity func(T) identity, opts func(ListOptions) any) iter.Seq2[T, error] {
	c, cfg, err := s.resolve(ctx, callOpts)
	if err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, &PageError{Page: firstPage(lo.Page), Err: err})
		}
	}
	return walkDirectory(ctx, c, cfg, d, lo, wo, identity, shrinkEnds, opts)
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
	return walkPages(ctx, lo, wo, c.prefetch, identity, shrink, cfg, func(ctx context.Context, lo ListOptions, cfg callConfig) (*Page[T], error) {
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
	seen     *walk.Seen
	bound    *walk.Bound
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
	pageCap, maxItems := lo.PageSize, wo.MaxItems
	if pageCap == 0 {
		pageCap = maxPageSize
	}
	if maxItems == 0 {
		maxItems = DefaultMaxItems
	}
	return &walker[T]{identity: identity, seen: walk.NewSeen(), bound: walk.NewBound(pageCap, maxItems), stats: stats}
}

// count counts page p, whose number is page, before any of its items is
// yielded; an error says the walk went out of bounds.
func (w *walker[T]) count(page int, p *Page[T]) error {
	w.stats.Pages++
	if err := w.bound.Check(page, len(p.Items), totals(p.Pagination)); err != nil {
		return fmt.Errorf("%w: %w", ErrWalkUnbounded, err)
	}
	return nil
}

// yieldNew yields the items of p the walk has not yielded yet, and
// reports false when the caller broke out.
func (w *walker[T]) yieldNew(p *Page[T], yield func(T, error) bool) bool {
	fresh := 0
	for _, it := range p.Items {
		if id := w.identity(it); !w.seen.Add(id[:]...) {
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

// totals are what page p says of its directory, for the walk's bound:
// the service's pagination.totalPages and pagination.total, which it does
// not document, when they are numbers 0 or more.
func totals(p Pagination) walk.Totals {
	count := func(name string) float64 {
		if v, ok := p.Metric(name).Get(); ok && v >= 0 {
			return v
		}
		return -1
	}
	return walk.Totals{Pages: count("totalPages"), Entries: count("total")}
}

// identity names an entry in a walk: the concatenation of its parts.
// Kept in parts, so that naming an entry (kind "/" ident) allocates
// nothing.
type identity [3]string

// String is the identity as one string.
func (id identity) String() string { return id[0] + id[1] + id[2] }

// pageResult is a page a walk read, with its Response, or its error.
type pageResult[T any] struct {
	page *Page[T]
	resp Response
	err  error
}

// last tells whether r ends a walk: a page that failed or has no next.
func (r pageResult[T]) last() bool { return r.err != nil || !r.page.Pagination.HasNext }

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
