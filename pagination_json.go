package gamedata

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/gamedata-go/gamedata/internal/jsonscan"
)

// MarshalJSON writes the page as the service sent it, its pagination as
// Pagination.MarshalJSON writes it. A Page built in Go is written as
// {"items": [...], "pagination": {...}}, the shape UnmarshalJSON reads.
func (p Page[T]) MarshalJSON() ([]byte, error) {
	pagination, err := p.Pagination.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if p.raw == nil {
		items := p.Items
		if items == nil {
			items = []T{} // a page without items is an empty array
		}
		return json.Marshal(struct {
			Items      []T             `json:"items"`
			Pagination json.RawMessage `json:"pagination"`
		}{items, pagination})
	}
	if sent, _ := p.Raw("pagination"); bytes.Equal(sent, pagination) {
		return p.raw, nil
	}
	return jsonscan.SetMembers(p.raw, []jsonscan.Member{{Name: "pagination", Value: pagination}})
}

// UnmarshalJSON decodes a directory page as the client does, each item
// with encoding/json; Pagination.Page is the page the pagination object
// names. Null leaves p as it is.
func (p *Page[T]) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	d, err := decodePage(bytes.Clone(b), 0, func(raw []byte) (T, error) {
		var v T
		err := json.Unmarshal(raw, &v)
		return v, err
	})
	if err != nil {
		return err
	}
	*p = *d
	return nil
}

// MarshalJSON writes the pagination object as the service sent it, with
// "page" set to Page when the service did not send that number (Page is
// then the page asked for). A Pagination built in Go is written from
// HasNext and Page, left out when 0.
func (p Pagination) MarshalJSON() ([]byte, error) {
	if p.raw == nil {
		v := map[string]any{"hasNext": p.HasNext}
		if p.Page != 0 {
			v["page"] = p.Page
		}
		return json.Marshal(v)
	}
	if sent, ok := p.Raw("page"); p.Page == 0 || ok && string(sent) == strconv.Itoa(p.Page) {
		return p.raw, nil
	}
	return jsonscan.SetMembers(p.raw, []jsonscan.Member{{Name: "page", Value: strconv.AppendInt(nil, int64(p.Page), 10)}})
}

// UnmarshalJSON decodes a pagination object; Page is the page it names,
// or 0. Null leaves p as it is.
func (p *Pagination) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	d, err := decodePagination(bytes.Clone(b), 0)
	if err != nil {
		return err
	}
	*p = d
	return nil
}
