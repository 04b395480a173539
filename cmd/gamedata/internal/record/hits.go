package record

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/gamedata-go/gamedata"
)

// A search answers packages, servers and organizations in three lists.
// Printed as one list, each hit says what it is: it gains a member
// "type" (package, server or organization) and a member "name" (a
// package's title, a server's or an organization's own name), unless it
// has a member of that name already, which is kept as sent. The rest of
// the hit is as sent.

// Hits are the hits of a search, a record each, packages first.
func Hits(packages []gamedata.Package, servers []gamedata.Server, orgs []gamedata.Organization) ([]gamedata.Fields, error) {
	var out []gamedata.Fields
	add := func(typ string, f gamedata.Fields) error {
		h, err := hit(typ, f)
		out = append(out, h)
		return err
	}
	for _, p := range packages {
		if err := add("package", p.Fields); err != nil {
			return nil, err
		}
	}
	for _, s := range servers {
		if err := add("server", s.Fields); err != nil {
			return nil, err
		}
	}
	for _, o := range orgs {
		if err := add("organization", o.Fields); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hit is f, a search hit of type typ, with its type and name.
func hit(typ string, f gamedata.Fields) (gamedata.Fields, error) {
	t, _ := json.Marshal(typ)
	add := []Member{{"type", t}}
	if raw, ok := f.Raw("title"); ok {
		add = append(add, Member{"name", raw})
	}
	return WithMembers(f, add)
}

// Member is a member of a JSON object, its value as JSON.
type Member struct {
	Name  string
	Value json.RawMessage
}

// WithMembers is f with the members add put first, those f does not
// have; f's own members follow as sent, in its order.
func WithMembers(f gamedata.Fields, add []Member) (gamedata.Fields, error) {
	body := bytes.TrimSpace(f.JSON())
	if len(body) == 0 || body[0] != '{' {
		return f, errors.New("a record that is not a JSON object")
	}
	rest := bytes.TrimSpace(body[1:])
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, m := range add {
		if _, ok := f.Raw(m.Name); ok {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		name, _ := json.Marshal(m.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	if n > 0 && len(rest) > 0 && rest[0] != '}' {
		b.WriteByte(',')
	}
	b.Write(rest)
	var out gamedata.Fields
	err := json.Unmarshal(b.Bytes(), &out)
	return out, err
}
