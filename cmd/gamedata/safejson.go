package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// jsonLine is a record as sent, on one line, with the characters that
// could steer a terminal escaped: the same JSON, safe to print.
func jsonLine(f gamedata.Fields) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, f.JSON()); err != nil {
		return nil, err
	}
	return escapeInvisible(b.Bytes()), nil
}

// escapeInvisible writes DEL, C1 controls, bidi controls and invisible
// characters, which JSON allows raw, as \u escapes.
func escapeInvisible(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if !invisible(r) {
			if out != nil {
				out = append(out, b[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(b)+16), b[:i]...)
		}
		if r > 0xffff {
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

func invisible(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2060 && r <= 0x2069) || r == 0x061c ||
		r == 0xfeff || (r >= 0xe0000 && r <= 0xe007f)
}
