package main

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/printer"
	"github.com/spf13/cobra"
)

// directoryFlags are the flags of a directory command (list, orgs).
type directoryFlags struct {
	List   gamedata.ListOptions
	All    bool
	Fields []string
}

func (d *directoryFlags) register(cmd *cobra.Command, sorts string) {
	f := cmd.Flags()
	f.StringVar(&d.List.Sort, "sort", "", "order, such as "+sorts+"; an order the service does not support is said on stderr")
	f.StringSliceVar(&d.List.Filters, "filter", nil, "filters, comma-separated or repeated, which combine; one the service does not apply is said on stderr")
	f.IntVar(&d.List.Page, "page", 1, "the page, from 1")
	f.IntVar(&d.List.PageSize, "page-size", 0, fmt.Sprintf("entries a page, at most %d (0: the service's default)", maxPageSize))
	f.BoolVar(&d.All, "all", false, "every page, from --page on, printed as pages arrive")
	f.StringSliceVar(&d.Fields, "fields", nil, "the members to print, comma-separated: columns for csv and table (default: the documented ones and the numeric members found), members for json and ndjson (default: every one)")
}

// maxPageSize is the most entries a page the service serves (SERVICE.md).
const maxPageSize = 100

// checkPaging refuses a page or a page size the service cannot serve, naming
// the flag, before anything is started or sent.
func (d *directoryFlags) checkPaging(command string) error {
	switch {
	case d.List.Page < 1:
		return message.Usagef("%s --page %d: want 1 or more", command, d.List.Page)
	case d.List.PageSize < 0 || d.List.PageSize > maxPageSize:
		return message.Usagef("%s --page-size %d: want 1 to %d, or 0 for the service's default", command, d.List.PageSize, maxPageSize)
	}
	return nil
}

// dirBound is --timeout's default for a directory command.
var dirBound = pageBound + ", and no limit with --all"

// bound is the command's timeout unless --timeout is given: a page is
// bounded, a walk of every page is a long job.
func (d *directoryFlags) bound() time.Duration {
	if d.All {
		return 0
	}
	return defaultTimeout
}

// batch is how many records a table or CSV listing holds before it writes
// them: a page.
func (d *directoryFlags) batch() int {
	if d.List.PageSize > 0 {
		return d.List.PageSize
	}
	return printer.Page
}

// walkWriter is the writer of a walk of every page: it holds a page at
// most, writes every known column, and says on stderr what it must
// leave out.
func walkWriter(ctx context.Context, c common, d directoryFlags, known []string, command string) printer.Writer {
	o := c.output(ctx, known, d.Fields, d.batch())
	o.Stream = true
	o.Notice = func(format string, args ...any) { message.Line(c.IO.errOut, command+": "+format, args...) }
	return printer.New(o)
}

// printDirectory prints what a directory command read: the records of
// first, its first page, or with --all every record of walk as it comes,
// a page held at most. A walk that fails keeps what it printed, each
// record whole.
func printDirectory[T any](ctx context.Context, c common, d directoryFlags, known []string, command string, first []T, walk iter.Seq2[T, error], fields func(T) gamedata.Fields) error {
	if !d.All {
		records := make([]gamedata.Fields, len(first))
		for i, e := range first {
			records[i] = fields(e)
		}
		return printAll(ctx, c, records, known, d.Fields)
	}
	w := walkWriter(ctx, c, d, known, command)
	n := 0
	for e, err := range walk {
		if err == nil {
			n++
			err = w.Write(fields(e))
		}
		if err != nil {
			w.Close() // what was read is whole: print it
			return message.WithKept(err, "%s printed, each whole", message.Plural(n, "record"))
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	c.noResults(n)
	return nil
}

// sayServed says each notice of what the service served on stderr.
func sayServed(c common, command string, notices []string) {
	for _, n := range notices {
		message.Line(c.IO.errOut, "%s: %s", command, n)
	}
}

// directoryHelp is what list and orgs say about --all and columns.
var directoryHelp = `With --all, rows are printed as pages arrive, so memory holds a page, not
the directory: NDJSON and JSON stream; CSV and table columns are the
documented ones and those of the first page (--page-size entries, or
100), and a table is aligned a page at a time. A numeric member that
first appears later is named on stderr; name it in --fields to have it.

The service answers a kind, sort or filter it does not support with its
default, without an error; the first page says what it served, and each
difference from what was asked is said on stderr.

Without --all the command gives up after ` + defaultTimeout.String() + ` unless --timeout says
otherwise; with --all it has no bound unless --timeout gives one.`
