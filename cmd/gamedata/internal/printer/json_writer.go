package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata"
)

// ndjsonWriter writes a record a line, as sent and safe to print.
type ndjsonWriter struct{ w io.Writer }

func (n *ndjsonWriter) Write(f gamedata.Fields) error {
	line, err := JSONLine(f)
	if err != nil {
		return err
	}
	_, err = n.w.Write(append(line, '\n'))
	return err
}

func (n *ndjsonWriter) Close() error { return nil }

// jsonWriter writes one JSON array, a record a line, so its output is one
// document; with indent, for a person on a terminal, each record is
// indented member by member.
type jsonWriter struct {
	w      io.Writer
	indent bool
	n      int
}

func (j *jsonWriter) Write(f gamedata.Fields) error {
	line, err := JSONLine(f)
	if err != nil {
		return err
	}
	if j.indent {
		line = Indented(line, "  ")
	}
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	_, err = fmt.Fprintf(j.w, "%s%s", sep, line)
	return err
}

func (j *jsonWriter) Close() error {
	if j.n == 0 {
		_, err := io.WriteString(j.w, "[]\n")
		return err
	}
	_, err := io.WriteString(j.w, "\n]\n")
	return err
}

// Indented is the JSON document b, which SafeJSON made safe to print,
// indented by two spaces a level after prefix; its escapes are kept.
func Indented(b []byte, prefix string) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, prefix, "  "); err != nil {
		return b
	}
	return buf.Bytes()
}
