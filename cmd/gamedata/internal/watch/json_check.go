package watch

import (
	"encoding/json"
	"io"
)

// jsonCheck tells whether the bytes written to it are one JSON value, as
// json.Valid does, without holding them: a decoder reads them as they
// come, a token at a time, so a body the client reads whole is not held a
// second time (a gzip bomb would double the memory it takes).
type jsonCheck struct {
	w     *io.PipeWriter
	valid chan bool
	buf   []byte // what a Write passes on
	// inString, escaped and blank are where the last Write stopped: in a
	// string, after its backslash, after a blank between tokens.
	inString, escaped, blank bool
}

func newJSONCheck() *jsonCheck {
	r, w := io.Pipe()
	c := &jsonCheck{w: w, valid: make(chan bool, 1)}
	go func() {
		ok := oneValue(json.NewDecoder(r))
		r.Close() // a later write fails at once: the answer is known
		c.valid <- ok
	}()
	return c
}

// Write passes p to the decoder; it never fails, since a decoder that
// has stopped has already decided. A run of blanks between tokens is
// passed as one: json.Decoder rescans the blanks it holds at each read,
// which a body of megabytes of blanks would make quadratic, and one
// blank separates tokens as well as many.
func (c *jsonCheck) Write(p []byte) (int, error) {
	c.buf = c.buf[:0]
	for _, b := range p {
		blank := !c.inString && (b == ' ' || b == '\t' || b == '\n' || b == '\r')
		if blank && c.blank {
			continue
		}
		c.blank = blank
		switch {
		case c.escaped:
			c.escaped = false
		case c.inString && b == '\\':
			c.escaped = true
		case b == '"':
			c.inString = !c.inString
		}
		c.buf = append(c.buf, b)
	}
	c.w.Write(c.buf)
	return len(p), nil
}

// result reports whether what was written is one JSON value. It is
// called once, when the body has ended.
func (c *jsonCheck) result() bool {
	c.w.Close()
	return <-c.valid
}

// abandon stops the decoder: the body was not read whole.
func (c *jsonCheck) abandon() { c.w.CloseWithError(io.ErrUnexpectedEOF) }

// oneValue reports whether d reads exactly one JSON value and then the
// end of its input.
func oneValue(d *json.Decoder) bool {
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			break
		}
	}
	_, err := d.Token()
	return err == io.EOF
}
