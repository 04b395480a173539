package gamedata

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"strings"
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

// decodePage decodes a directory response by these rules: the body is an
// object with a "pagination" object holding a boolean "hasNext"; the items
// are the array member beside it (when there are several arrays, the one
// named "items"); each item is decoded by item, whose error names the
// item's index. A pagination.page other than the page asked for is
// ErrPageOutOfRange.
func decodePage[T any](body []byte, requested int, item func([]byte) (T, error)) (*Page[T], error) {
	var pagination []byte
	var arrays []span
	err := eachMember(body, func(name, value []byte) error {
		switch {
		case nameIs(name, "pagination"):
			pagination = value
		case value[0] == '[':
			arrays = append(arrays, span{name: memberName(name), value: value})
		}
		return nil
	})
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: fmt.Errorf("directory response: %w", objectError(body, err))}
	}
	p := &Page[T]{Fields: fieldsOf(body)}
	if p.Pagination, err = decodePagination(pagination, requested); err != nil {
		return nil, err
	}
	items, err := itemsMember(arrays)
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: err}
	}
	if p.Items, err = decodeArray(items.value, items.name, item); err != nil {
		return nil, err
	}
	return p, nil
}

func decodePagination(raw []byte, requested int) (Pagination, error) {
	if raw == nil {
		return Pagination{}, &DecodeError{Member: "pagination", Index: -1, Err: errors.New("directory response has no pagination object")}
	}
	p := Pagination{Page: requested}
	var hasNext, page []byte
	err := eachMember(raw, func(name, value []byte) error {
		switch {
		case nameIs(name, "hasNext"):
			hasNext = value
		case nameIs(name, "page"):
			page = value
		}
		return nil
	})
	if err != nil {
		return Pagination{}, &DecodeError{Member: "pagination", Index: -1, Err: objectError(raw, err)}
	}
	p.Fields = fieldsOf(raw)
	switch string(hasNext) {
	case "true", "false":
		p.HasNext = string(hasNext) == "true"
	default:
		return Pagination{}, &DecodeError{Member: "pagination.hasNext", Index: -1, Err: fmt.Errorf("got %q, want a boolean", clip(hasNext))}
	}
	if page != nil && string(page) != "null" {
		served, err := strconv.Atoi(string(page))
		if err != nil {
			return Pagination{}, &DecodeError{Member: "pagination.page", Index: -1, Err: fmt.Errorf("got %s, want an integer", clip(page))}
		}
		if served != requested {
			return Pagination{}, fmt.Errorf("%w: asked for page %d, served page %d", ErrPageOutOfRange, requested, served)
		}
	}
	return p, nil
}

// itemsMember picks a directory's array of items among its arrays.
func itemsMember(arrays []span) (span, error) {
	if len(arrays) == 1 {
		return arrays[0], nil
	}
	names := make([]string, len(arrays))
	for i, a := range arrays {
		if a.name == "items" {
			return a, nil
		}
		names[i] = a.name
	}
	if len(arrays) == 0 {
		return span{}, errors.New("directory response has no array of items beside pagination")
	}
	slices.Sort(names)
	return span{}, fmt.Errorf("directory response has several arrays (%s) and none is named items", strings.Join(names, ", "))
}

// walk yields every item of a directory from page first on, following
// hasNext, with prefetch pages fetched ahead of the caller. It stops at the
// first error, yielded as a *PageError so the caller can resume at that
// page. A redirect after the first page means the directory shrank since
// the previous page promised more: the walk ends there without an error. A
// page with the same items as the page before means the service ignores
// the page parameter: the walk ends with ErrPageNotAdvancing instead of
// looping forever. Breaking out of the loop cancels pages in flight and
// returns only once they have stopped.
func walk[T any](ctx context.Context, first int, prefetch int, fetch func(context.Context, int) (*Page[T], error), identity func(T) string) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if first == 0 {
			first = 1
		}
		ctx, cancel := context.WithCancel(ctx)
		next, wait := pages(ctx, first, prefetch, fetch)
		defer func() {
			cancel()
			wait()
		}()

		var previous []string
		for page := first; ; page++ {
			p, err := next()
			if err != nil {
				var redirected *pageRedirectError
				if errors.As(err, &redirected) && previous != nil {
					return
				}
				var zero T
				yield(zero, &PageError{Page: page, Err: err})
				return
			}
			ids := make([]string, len(p.Items))
			for i, it := range p.Items {
				ids[i] = identity(it)
			}
			if len(ids) > 0 && slices.Equal(ids, previous) {
				var zero T
				yield(zero, &PageError{Page: page, Err: ErrPageNotAdvancing})
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
			if !p.Pagination.HasNext {
				return
			}
			previous = ids
		}
	}
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
	return func() (*Page[T], error) {
			r, ok := <-results
			if !ok {
				// Only a cancelled walk asks past the last page.
				return nil, ctx.Err()
			}
			return r.page, r.err
		}, func() {
			<-done
		}
}

// getPage reads one directory page.
func getPage[T any](ctx context.Context, c *Client, u *url.URL, page int, item func([]byte) (T, error)) (*Page[T], error) {
	var p *Page[T]
	err := c.getJSON(ctx, u, func(b []byte) (err error) {
		p, err = decodePage(b, page, item)
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}
