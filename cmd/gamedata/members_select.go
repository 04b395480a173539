package main

import (
	"bytes"
	"encoding/json"

	"github.com/gamedata-go/gamedata"
)

// selectMembers is f with only the members fields names, in fields'
// order, each as sent; a member f lacks stays absent (absent is not
// null).
func selectMembers(f gamedata.Fields, fields []string) (gamedata.Fields, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, name := range fields {
		raw, ok := f.Raw(name)
		if !ok {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		b.Write(raw)
	}
	b.WriteByte('}')
	var out gamedata.Fields
	err := json.Unmarshal(b.Bytes(), &out)
	return out, err
}

// selectedMembers is a JSON or NDJSON writer of the members --fields
// names, checked, as CSV and table columns are, against the documented
// ones and those of the first record.
type selectedMembers struct {
	w       writer
	fields  []string
	known   []string
	checked bool
}

func (s *selectedMembers) write(f gamedata.Fields) error {
	if !s.checked {
		s.checked = true
		if err := checkFields(s.fields, s.known, []gamedata.Fields{f}); err != nil {
			return err
		}
	}
	sel, err := selectMembers(f, s.fields)
	if err != nil {
		return err
	}
	return s.w.write(sel)
}

func (s *selectedMembers) close() error {
	if !s.checked {
		if err := checkFields(s.fields, s.known, nil); err != nil {
			return err
		}
	}
	return s.w.close()
}
