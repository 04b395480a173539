// Package transform runs --jq and --template, as gh has them: what a
// command would print with -o json is passed through a jq expression
// (gojq) or a Go text/template with gh's helpers, under the command's
// context, and what that yields is printed instead, sanitized line by
// line and never held whole.
package transform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/template"
	"time"

	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
)

// Transform is --jq or --template, as gh has them: what a command would
// print with -o json (an array of records, or one record for get) is
// passed through a jq expression (gojq, the implementation gh uses) or a
// Go text/template, and what that yields is printed instead.
//
// Whatever it prints is sanitized line by line, tabs kept: it quotes the
// service's text, which must not steer a terminal, while @tsv output and
// tablerow columns keep their separators.
type Transform struct {
	jq   *gojq.Code
	tmpl *template.Template
	run  *templateRun // the state of tmpl's functions
	out  io.Writer
	// indent writes a JSON result indented, for a person on a terminal.
	indent bool
}

// Flags are --jq and --template as given: a command that prints records
// binds them into its options (Register), as gh's AddJSONFlags does, so
// that what it would run with is known once its flags are parsed.
type Flags struct {
	JQ, Template string
}

// Register adds --jq and --template to cmd, bound to fl.
func (fl *Flags) Register(cmd *cobra.Command) { fl.RegisterOn(cmd, "what -o json would") }

// RegisterOn adds --jq and --template to cmd, bound to fl, for a command
// whose help says what they read as input: one that has no -o.
func (fl *Flags) RegisterOn(cmd *cobra.Command, input string) {
	cmd.Flags().StringVar(&fl.JQ, "jq", "", "print "+input+", filtered by this jq expression (gojq; strings are printed raw)")
	cmd.Flags().StringVar(&fl.Template, "template", "", "print "+input+" through this Go template (with tablerow, tablerender, timeago, timefmt, join, pluck, truncate)")
}

// New returns the Transform fl asks for, or nil when it asks for none.
// output is the -o format; what the Transform prints goes to out, a JSON
// result indented when indent is set (a terminal), a template's table
// fitted to width cells (0: no limit); timeago reads now. A bad
// expression or template, both flags, or an output format that is not
// JSON is bad usage (message.UsageError), refused before anything is
// sent.
func New(fl Flags, output string, out io.Writer, indent bool, width int, now func() time.Time) (*Transform, error) {
	expr, text := fl.JQ, fl.Template
	if expr == "" && text == "" {
		return nil, nil
	}
	if expr != "" && text != "" {
		return nil, message.Usagef("--jq and --template: give one of them")
	}
	if output == "csv" || output == "table" {
		return nil, message.Usagef("-o %s with --jq or --template: they work on the JSON form; leave -o out", output)
	}
	t := &Transform{out: out, indent: indent}
	if expr != "" {
		q, err := gojq.Parse(expr)
		if err != nil {
			return nil, message.Usagef("--jq %q: %v", expr, err)
		}
		if t.jq, err = gojq.Compile(q); err != nil {
			return nil, message.Usagef("--jq %q: %v", expr, err)
		}
		return t, nil
	}
	t.run = &templateRun{now: now, width: width}
	tmpl, err := template.New("--template").Funcs(t.run.funcs()).Parse(text)
	if err != nil {
		return nil, message.Usagef("--template: %v", err)
	}
	t.tmpl = tmpl
	return t, nil
}

// Apply prints doc, a JSON document, through the transform, under ctx:
// a jq expression or a template is the user's program, and the
// command's --timeout, Ctrl-C and SIGTERM end it wherever it is.
// What it prints is written as it comes, never held whole, so an
// expression that prints without end (repeat) holds no more than a line.
func (t *Transform) Apply(ctx context.Context, doc []byte) error {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber() // numbers as sent, never rounded through a float
	var v any
	if err := d.Decode(&v); err != nil {
		return err
	}
	if t.jq != nil {
		return t.applyJQ(ctx, v)
	}
	return t.applyTemplate(ctx, v)
}

func (t *Transform) applyJQ(ctx context.Context, v any) error {
	iter := t.jq.RunWithContext(ctx, v)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := r.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil // halt: the end, not a failure
			}
			return fmt.Errorf("--jq: %w", err)
		}
		line, err := jqLine(r, t.indent)
		if err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("--jq: %w", err)
		}
		if _, err := io.WriteString(t.out, shownLines(line)); err != nil {
			return err
		}
	}
}

// jqLine is one result of a jq expression as printed: a string raw,
// anything else as JSON safe to print, indented for a person.
func jqLine(r any, indent bool) (string, error) {
	if s, ok := r.(string); ok {
		return s + "\n", nil
	}
	b, err := gojq.Marshal(r)
	if err != nil {
		return "", err
	}
	if b, err = printer.SafeJSON(b); err != nil {
		return "", err
	}
	if indent {
		b = printer.Indented(b, "")
	}
	return string(b) + "\n", nil
}

// applyTemplate runs the template on v under ctx. text/template knows no
// context, so it runs on its own goroutine: when ctx ends first the
// command ends at once, and the template's next write fails, which stops
// it (one that loops without writing is left to the process's exit).
func (t *Transform) applyTemplate(ctx context.Context, v any) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("--template: %w", err)
	}
	out := &templateOut{w: t.out}
	// A write fails from the moment ctx ends, before the select below
	// sees it.
	stop := context.AfterFunc(ctx, func() { out.abandon(ctx.Err()) })
	defer stop()
	done := make(chan error, 1)
	go func() {
		err := t.tmpl.Execute(out, v)
		if err == nil {
			_, err = io.WriteString(out, t.run.render()) // rows tablerow left without tablerender
		}
		if err == nil {
			err = out.flush()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("--template: %w", err)
		}
		return nil
	case <-ctx.Done():
		out.abandon(ctx.Err())
		return fmt.Errorf("--template: %w", ctx.Err())
	}
}
