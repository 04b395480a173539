package printer

import (
	"bytes"
	"encoding/json"

	"github.com/gamedata-go/gamedata"
)

// SelectMembers is f with only the members fields names, in fields'
// order, each as sent; a member f lacks stays absent (absent is not
// null).
func SelectMembers(f gamedata.Fields, fields []string) (gamedata.Fields, error) {
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
