package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
)

// paginate reads the directory r names, every page from the one it
// names on, as one document: the first page's envelope as sent, with
// every entry of the SDK's walk in place of its items and its pagination
// saying the document is whole. The walk keeps its guards (each entry
// once, hasNext followed, the bound of an endless directory, a
// redirected page never read as another); the first page is read once
// more for its envelope, as list --all reads it.
func paginate(ctx context.Context, c *gamedata.Client, r apiRequest) ([]byte, error) {
	first, err := r.Route.read(ctx, c, r.Args, r.Query)
	if err != nil {
		return nil, err
	}
	var envelope gamedata.Fields
	if err := json.Unmarshal(first, &envelope); err != nil {
		return nil, err
	}
	var stats gamedata.WalkStats
	var moved redirects
	var items []json.RawMessage
	for e, err := range r.Route.walk(ctx, c, r.Query, &gamedata.WalkOptions{Stats: &stats}, gamedata.WithCallMiddleware(moved.note)) {
		if err != nil {
			return nil, err
		}
		items = append(items, e.JSON())
	}
	// The walk ends without an error at a page after its first that the
	// service redirects: the directory shrank while it was read, and
	// what moved to pages already read is missing. Such a document is
	// not the whole directory, and must not say it is.
	if page := moved.first(); page != "" {
		return nil, fmt.Errorf("api %s --paginate: page %s was redirected after the page before it said more followed: the directory shrank while it was read, so entries may be missing; run it again", r.Path, page)
	}
	from := max(pageOptions(r.Query).Page, 1) // no page asked for is the first
	return wholeDocument(envelope, items, from, from+stats.Pages-1), nil
}

// redirects notes the first directory page the service redirected to
// another page, from the attempts the walk's pages send (some of them
// at once, read ahead).
type redirects struct {
	mu   sync.Mutex
	page string
}

// note is the walk's middleware: it sees the answer the client's
// redirect rules refuse to follow.
func (r *redirects) note(req *http.Request, next gamedata.Next) (*http.Response, error) {
	resp, err := next.RoundTrip(req)
	if err != nil || resp.StatusCode < 300 || resp.StatusCode > 399 {
		return resp, err
	}
	asked := req.URL.Query().Get("page")
	if to, lerr := req.URL.Parse(resp.Header.Get("Location")); lerr == nil && to.Query().Get("page") != asked {
		r.mu.Lock()
		if r.page == "" {
			r.page = asked
		}
		r.mu.Unlock()
	}
	return resp, err
}

func (r *redirects) first() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.page
}

// wholeDocument is envelope, a directory's page as sent, with items in
// place of its own, and its pagination saying that no page follows and
// that the document holds pages first to last.
func wholeDocument(envelope gamedata.Fields, items []json.RawMessage, first, last int) []byte {
	list := itemsMember(envelope)
	return rewritten(envelope, func(name string, raw json.RawMessage) json.RawMessage {
		switch name {
		case list:
			return array(items)
		case "pagination":
			var p gamedata.Fields
			if json.Unmarshal(raw, &p) != nil {
				return raw
			}
			return rewritten(p, func(name string, raw json.RawMessage) json.RawMessage {
				switch name {
				case "hasNext":
					return json.RawMessage("false")
				case "page", "firstPage", "lastPage":
					return nil
				}
				return raw
			}, member{"firstPage", strconv.Itoa(first)}, member{"lastPage", strconv.Itoa(last)})
		}
		return raw
	})
}

// itemsMember names the array of a directory page's items, as the SDK
// finds it: the one array beside pagination, or else the one named
// items.
func itemsMember(envelope gamedata.Fields) string {
	var arrays []string
	for _, name := range envelope.Names() {
		if raw, _ := envelope.Raw(name); name != "pagination" && len(raw) > 0 && raw[0] == '[' {
			arrays = append(arrays, name)
		}
	}
	if len(arrays) == 1 {
		return arrays[0]
	}
	return "items"
}

// member is a member of a JSON object: its name and its JSON value.
type member struct{ name, value string }

// rewritten is the object f, its members in the order sent, each as
// value returns it (nil leaves it out), then the members added.
func rewritten(f gamedata.Fields, value func(name string, raw json.RawMessage) json.RawMessage, added ...member) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(name string, value []byte) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(value)
	}
	for _, name := range printer.MemberOrder(f) {
		raw, _ := f.Raw(name)
		if v := value(name, raw); v != nil {
			write(name, v)
		}
	}
	for _, m := range added {
		write(m.name, []byte(m.value))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// array is a JSON array of items, [] for none.
func array(items []json.RawMessage) json.RawMessage {
	if items == nil {
		items = []json.RawMessage{}
	}
	b, _ := json.Marshal(items) // each item is JSON the client decoded
	return b
}
