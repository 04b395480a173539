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
	env, err := decodeFields(body)
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: fmt.Errorf("directory response: %w", err)}
	}
	p := &Page[T]{Fields: env}
	if p.Pagination, err = decodePagination(env, requested); err != nil {
		return nil, err
	}

	name, err := itemsMember(env)
	if err != nil {
		return nil, &DecodeError{Index: -1, Err: err}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(env.members[name], &raws); err != nil {
		return nil, &DecodeError{Member: name, Index: -1, Err: err}
	}
	p.Items = make([]T, len(raws))
	for i, raw := range raws {
		if p.Items[i], err = item(raw); err != nil {
			return nil, &DecodeError{Member: fmt.Sprintf("%s[%d]", name, i), Index: i, Err: err}
		}
	}
	return p, nil
}

func decodePagination(env Fields, requested int) (Pagination, error) {
	raw, ok := env.members["pagination"]
	if !ok {
		return Pagination{}, &DecodeError{Member: "pagination", Index: -1, Err: errors.New("directory response has no pagination object")}
	}
	f, err := decodeFields(raw)
	if err != nil {
		return Pagination{}, &DecodeError{Member: "pagination", Index: -1, Err: err}
	}
	p := Pagination{Page: requested, Fields: f}
	switch v := string(f.members["hasNext"]); v {
	case "true", "false":
		p.HasNext = v == "true"
	default:
		return Pagination{}, &DecodeError{Member: "pagination.hasNext", Index: -1, Err: fmt.Errorf("got %q, want a boolean", clip([]byte(v)))}
	}
	if v, ok := f.members["page"]; ok && string(v) != "null" {
		served, err := strconv.Atoi(string(v))
		if err != nil {
			return Pagination{}, &DecodeError{Member: "pagination.page", Index: -1, Err: fmt.Errorf("got %s, want an integer", clip(v))}
		}
		if served != requested {
			return Pagination{}, fmt.Errorf("%w: asked for page %d, served page %d", ErrPageOutOfRange, requested, served)
		}
	}
	return p, nil
}

// itemsMember finds the name of a directory's array of items.
func itemsMember(env Fields) (string, error) {
	var arrays []string
	for name, v := range env.members {
		if name != "pagination" && len(v) > 0 && v[0] == '[' {
			arrays = append(arrays, name)
		}
	}
	switch {
	case len(arrays) == 1:
		return arrays[0], nil
	case slices.Contains(arrays, "items"):
		return "items", nil
	case len(arrays) == 0:
		return "", errors.New("directory response has no array of items beside pagination")
	}
	slices.Sort(arrays)
	return "", fmt.Errorf("directory response has several arrays (%s) and none is named items", strings.Join(arrays, ", "))
}

// walk yields every item of a directory from page first on, following
// hasNext. It stops at the first error, yielded as a *PageError so the
// caller can resume at that page. A redirect after the first page means
// the directory shrank since the previous page promised more: the walk
// ends there without an error. A page with the same items as the page
// before means the service ignores the page parameter: the walk ends with
// ErrPageNotAdvancing instead of looping forever.
func walk[T any](ctx context.Context, first int, fetch func(context.Context, int) (*Page[T], error), identity func(T) string) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var previous []string
		page := first
		if page == 0 {
			page = 1
		}
		for ; ; page++ {
			p, err := fetch(ctx, page)
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
