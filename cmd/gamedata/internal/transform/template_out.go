package transform

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/gamedata-go/gamedata"
)

// maxHeldLine is the most of one line a template's output holds before it
// is written: a template that never ends a line is still written as it
// goes.
const maxHeldLine = 64 << 10

// templateOut is where a template writes: each whole line goes to w
// through the sanitizer as it comes, so a template that prints without
// end holds a line at most; a write once the template is abandoned (its
// context ended) fails, which ends the template.
type templateOut struct {
	w       io.Writer
	mu      sync.Mutex
	partial []byte
	// abandoned is why every later write fails, nil until then.
	abandoned error
}

func (o *templateOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.abandoned != nil {
		return 0, o.abandoned
	}
	o.partial = append(o.partial, p...)
	// Only p can hold a new line end: what was held before has none.
	n := len(o.partial) - len(p) + bytes.LastIndexByte(p, '\n') + 1
	if n == len(o.partial)-len(p) {
		if len(o.partial) < maxHeldLine {
			return len(p), nil
		}
		n = len(o.partial)
	}
	if err := o.write(n); err != nil {
		return 0, err
	}
	return len(p), nil
}

// write writes the first n bytes held, sanitized, and keeps the rest.
func (o *templateOut) write(n int) error {
	_, err := io.WriteString(o.w, shownLines(string(o.partial[:n])))
	o.partial = append(o.partial[:0], o.partial[n:]...)
	return err
}

// flush writes what is held of the last line.
func (o *templateOut) flush() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.abandoned != nil || len(o.partial) == 0 {
		return nil
	}
	return o.write(len(o.partial))
}

// abandon makes every later write fail with err, the end of the
// command's context, once and for all.
func (o *templateOut) abandon(err error) {
	o.mu.Lock()
	if o.abandoned == nil {
		o.abandoned = err
	}
	o.mu.Unlock()
}

// shownLines is s through the sanitizer a line at a time, and within a
// line a tab-separated field at a time: the service's text is shown
// inert, and the lines and tabs a jq expression or a template wrote stay.
func shownLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		fields := strings.Split(line, "\t")
		for j, f := range fields {
			fields[j] = gamedata.NewUntrusted(f).String()
		}
		lines[i] = strings.Join(fields, "\t")
	}
	return strings.Join(lines, "\n")
}
