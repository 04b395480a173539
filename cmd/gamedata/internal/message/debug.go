package message

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/gamedata-go/gamedata"
)

// NewDebugHandler returns a slog.Handler that writes each record as one
// line on w, as Line does: its message, then each attribute as
// key=value. Every value goes through the sanitizer, and loses what a
// URL in it may carry of a secret (RedactURLs), whoever logged it: the
// library's attempt lines and anything a package under it logs. Lines
// written at once from several goroutines (a fan-out's attempts) do not
// mix.
func NewDebugHandler(w io.Writer) slog.Handler {
	return &debugHandler{w: w, mu: &sync.Mutex{}}
}

type debugHandler struct {
	w  io.Writer
	mu *sync.Mutex // shared by the handlers WithAttrs and WithGroup make
	// attrs are the attributes WithAttrs gave, written; group is the
	// prefix of the keys WithGroup gave.
	attrs []string
	group string
}

func (h *debugHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *debugHandler) Handle(_ context.Context, r slog.Record) error {
	fields := append([]string{r.Message}, h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		fields = appendAttr(fields, h.group, a)
		return true
	})
	h.mu.Lock()
	defer h.mu.Unlock()
	Line(h.w, "%s", strings.Join(fields, " "))
	return nil
}

func (h *debugHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append([]string(nil), h.attrs...)
	for _, a := range attrs {
		c.attrs = appendAttr(c.attrs, h.group, a)
	}
	return &c
}

func (h *debugHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group += name + "."
	return &c
}

// appendAttr appends a, written key=value, to fields: a group's
// attributes each with the group's name before its key.
func appendAttr(fields []string, prefix string, a slog.Attr) []string {
	a.Value = a.Value.Resolve()
	switch {
	case a.Equal(slog.Attr{}):
		return fields
	case a.Value.Kind() == slog.KindGroup:
		if a.Key != "" {
			prefix += a.Key + "."
		}
		for _, g := range a.Value.Group() {
			fields = appendAttr(fields, prefix, g)
		}
		return fields
	}
	return append(fields, prefix+a.Key+"="+debugValue(a.Value))
}

// debugValue is v as a line shows it: sanitized, a URL's secrets
// redacted, and quoted when it would not read as one word.
func debugValue(v slog.Value) string {
	s := gamedata.NewUntrusted(RedactURLs(v.String())).String()
	if s == "" || strings.ContainsAny(s, " =\"") {
		return strconv.Quote(s)
	}
	return s
}
