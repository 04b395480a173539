package exporter

import (
	"context"
	"log/slog"
	"regexp"

	"github.com/gamedata-go/gamedata"
)

// safeHandler hands each record on to next with its message, its keys and
// every value written as text through the sanitizer, and without the
// values the YAML decoder quotes. It stands between our log and what
// others log into it: net/http's server (a TLS handshake error quotes the
// client's certificate) and the exporter toolkit (an error of a web
// configuration file changed while the exporter runs quotes the file),
// whose words we do not choose.
type safeHandler struct{ next slog.Handler }

func (h safeHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h safeHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, safeText(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(safeAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h safeHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	safe := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		safe[i] = safeAttr(a)
	}
	return safeHandler{h.next.WithAttrs(safe)}
}

func (h safeHandler) WithGroup(name string) slog.Handler {
	return safeHandler{h.next.WithGroup(safeText(name))}
}

// safeAttr is a with its key and what it holds as text made safe: a
// string, or an error or anything else as the handler would print it.
// Numbers, times and durations stay as they are, and an empty attribute,
// which a handler leaves out, stays empty.
func safeAttr(a slog.Attr) slog.Attr {
	if a.Equal(slog.Attr{}) {
		return a
	}
	a.Key = safeText(a.Key)
	a.Value = a.Value.Resolve()
	switch a.Value.Kind() {
	case slog.KindGroup:
		group := a.Value.Group()
		safe := make([]slog.Attr, len(group))
		for i, g := range group {
			safe[i] = safeAttr(g)
		}
		a.Value = slog.GroupValue(safe...)
	case slog.KindString, slog.KindAny:
		a.Value = slog.StringValue(safeText(a.Value.String()))
	}
	return a
}

func safeText(s string) string { return gamedata.NewUntrusted(redactQuoted(s)).String() }

// yamlQuoted is a value the YAML decoder quotes in an error: "cannot
// unmarshal !!str `hunter2...` into ...".
var yamlQuoted = regexp.MustCompile("`[^`]*`")

// redactQuoted is s without the values the YAML decoder quoted in it,
// which may be a secret written where the file's format wants something
// else.
func redactQuoted(s string) string { return yamlQuoted.ReplaceAllString(s, "`xxxxx`") }
