package transform

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/textwidth"
)

// templateRun is the state of a --template's functions, gh's helpers
// written anew: the rows tablerow collects, the terminal's width they fit
// in, and the clock timeago reads.
type templateRun struct {
	now   func() time.Time
	width int // the terminal's; 0 in a pipe, where no column is cut
	rows  [][]string
}

func (r *templateRun) funcs() template.FuncMap {
	return template.FuncMap{
		"tablerow":    r.tablerow,
		"tablerender": r.render,
		"timeago":     r.timeago,
		"timefmt":     timefmt,
		"join":        join,
		"pluck":       pluck,
		"truncate":    truncate,
	}
}

// maxTableRows is the most rows tablerow holds for tablerender: a
// template's memory is bounded, as its output is.
const maxTableRows = 100_000

// tablerow adds a row of cells to the table tablerender writes, so that
// its columns line up; it writes nothing itself.
func (r *templateRun) tablerow(cells ...any) (string, error) {
	if len(r.rows) >= maxTableRows {
		return "", fmt.Errorf("tablerow: %d rows held; call tablerender to print them, at most %d at a time", len(r.rows), maxTableRows)
	}
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = shown(c) // measured as it will be shown
	}
	r.rows = append(r.rows, row)
	return "", nil
}

// render writes the rows tablerow collected, aligned and fit to the
// terminal, and starts a new table.
func (r *templateRun) render() string {
	if len(r.rows) == 0 {
		return ""
	}
	n := 0
	for _, row := range r.rows {
		n = max(n, len(row))
	}
	natural := make([]int, n)
	for _, row := range r.rows {
		for i, c := range row {
			natural[i] = max(natural[i], textwidth.Width(c))
		}
	}
	widths := printer.FitColumns(natural, r.width)
	var b strings.Builder
	for _, row := range r.rows {
		line := make([]string, len(row))
		for i, c := range row {
			c = textwidth.Truncate(c, widths[i])
			if i < len(row)-1 {
				c = textwidth.Pad(c, widths[i])
			}
			line[i] = c
		}
		b.WriteString(strings.TrimRight(strings.Join(line, "  "), " ") + "\n")
	}
	r.rows = nil
	return b.String()
}

// timeago says how long ago an ISO 8601 time was: "3 hours ago".
func (r *templateRun) timeago(s string) (string, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", fmt.Errorf("timeago %q: want an RFC 3339 time", s)
	}
	return ago(r.now().Sub(t)), nil
}

func ago(d time.Duration) string {
	switch {
	case d < 0:
		return "in the future"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return message.Plural(int(d.Minutes()), "minute") + " ago"
	case d < 24*time.Hour:
		return message.Plural(int(d.Hours()), "hour") + " ago"
	case d < 30*24*time.Hour:
		return message.Plural(int(d.Hours()/24), "day") + " ago"
	case d < 365*24*time.Hour:
		return message.Plural(int(d.Hours()/24/30), "month") + " ago"
	}
	return message.Plural(int(d.Hours()/24/365), "year") + " ago"
}

// timefmt writes an ISO 8601 time in a Go layout, in UTC.
func timefmt(layout, s string) (string, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", fmt.Errorf("timefmt %q: want an RFC 3339 time", s)
	}
	return t.UTC().Format(layout), nil
}

// join joins the values of list with sep.
func join(sep string, list []any) string {
	parts := make([]string, len(list))
	for i, v := range list {
		parts[i] = scalar(v)
	}
	return strings.Join(parts, sep)
}

// pluck collects member field of every object in list.
func pluck(field string, list []any) []any {
	out := make([]any, 0, len(list))
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m[field])
		}
	}
	return out
}

// truncate cuts a value's text, as it will be shown, to width terminal
// cells, with "…".
func truncate(width int, v any) string { return textwidth.Truncate(shown(v), width) }

// shown is a value's text as the sanitizer shows it: what a column's
// width is measured on and a cut is made in, so that an escape sequence
// the service sent neither widens a column nor is cut in two.
func shown(v any) string { return gamedata.NewUntrusted(scalar(v)).String() }

// scalar is a JSON value as text: a string as it is, a number as sent,
// null as nothing (as in a table: never 0), an array or object as JSON.
func scalar(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		return fmt.Sprint(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
