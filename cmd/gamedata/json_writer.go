package main

import (
	"fmt"
	"io"

	"github.com/gamedata-go/gamedata"
)

// ndjsonWriter writes a record a line, as sent and safe to print.
type ndjsonWriter struct{ w io.Writer }

func (n *ndjsonWriter) write(f gamedata.Fields) error {
	line, err := jsonLine(f)
	if err != nil {
		return err
	}
	_, err = n.w.Write(append(line, '\n'))
	return err
}

func (n *ndjsonWriter) close() error { return nil }

// jsonWriter writes one JSON array, a record a line, so its output is one
// document.
type jsonWriter struct {
	w io.Writer
	n int
}

func (j *jsonWriter) write(f gamedata.Fields) error {
	line, err := jsonLine(f)
	if err != nil {
		return err
	}
	sep := ",\n  "
	if j.n == 0 {
		sep = "[\n  "
	}
	j.n++
	_, err = fmt.Fprintf(j.w, "%s%s", sep, line)
	return err
}

func (j *jsonWriter) close() error {
	if j.n == 0 {
		_, err := io.WriteString(j.w, "[]\n")
		return err
	}
	_, err := io.WriteString(j.w, "\n]\n")
	return err
}
