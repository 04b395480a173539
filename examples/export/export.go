package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gamedata-go/gamedata"
)

// progressEvery spaces the progress lines of a long walk.
const progressEvery = time.Second

// export walks the directory page by page from o.resumePage, writing each
// page whole once every entry of it (and, with -details, every detail
// record) is in hand. A failure stops the walk at a page boundary and says
// how to resume.
func export(ctx context.Context, c *gamedata.Client, o *options, out *sink, stderr io.Writer) error {
	written, pages := 0, 0
	lastProgress := time.Now()
	for page := o.resumePage; ; page++ {
		p, err := c.Dashboard.List(ctx, &gamedata.DashboardOptions{
			Kind:        o.kind,
			ListOptions: gamedata.ListOptions{Sort: o.sort, Filters: o.filters, Page: page, PageSize: o.pageSize},
		})
		if err == nil && page > o.resumePage && len(p.Items) == 0 && p.Pagination.HasNext {
			err = fmt.Errorf("page %d is empty but claims more pages", page)
		}
		var buf bytes.Buffer
		n := 0
		if err == nil {
			n, err = encodePage(ctx, c, o, p.Items, out.fresh && page == o.resumePage, &buf, stderr)
		}
		if err == nil {
			_, err = out.w.Write(buf.Bytes())
		}
		if err != nil {
			fmt.Fprintf(stderr, "export: stopped at page %d after writing %d entries; %s\n", page, written, resumeHint(o, page))
			return fmt.Errorf("page %d: %w", page, err)
		}
		written += n
		pages++
		if !p.Pagination.HasNext {
			fmt.Fprintf(stderr, "export: done: %d entries from %d pages (pages %d to %d)\n", written, pages, o.resumePage, page)
			return nil
		}
		if time.Since(lastProgress) >= progressEvery {
			lastProgress = time.Now()
			of := ""
			if total, ok := p.Pagination.Metric("totalPages").Get(); ok {
				of = " of " + strconv.FormatFloat(total, 'f', -1, 64)
			}
			fmt.Fprintf(stderr, "export: page %d%s done, %d entries written\n", page, of, written)
		}
	}
}

// encodePage writes the records of one page to buf, with a CSV header first
// when header is set. An entry whose identifiers the SDK refuses to send
// (the dot segment "..", which no request can name safely) is skipped and
// said so on stderr: it is not a failure of the export.
func encodePage(ctx context.Context, c *gamedata.Client, o *options, items []gamedata.DashboardEntry, header bool, buf *bytes.Buffer, stderr io.Writer) (written int, err error) {
	cw := csv.NewWriter(buf)
	if header && o.format == "csv" {
		cols := []string{"kind", "ident", "id", "name", "players", "updated"}
		if o.details {
			cols = append(cols, "organization", "description")
		}
		cw.Write(cols)
	}
	for _, e := range items {
		record := e.Fields
		if o.details {
			d, err := details(ctx, c, e)
			if errors.Is(err, gamedata.ErrInvalidArgument) {
				fmt.Fprintf(stderr, "export: skipped %s, which no request can name: %v\n", name(e), errors.Unwrap(err))
				continue
			}
			if err != nil {
				return written, err
			}
			record = d
		}
		if o.format == "jsonl" {
			if err := json.Compact(buf, record.JSON()); err != nil {
				return written, fmt.Errorf("entry %s: %w", name(e), err)
			}
			buf.WriteByte('\n')
			written++
			continue
		}
		row := []string{safe(e.Kind), safe(e.Ident), safe(e.ID), cell(record, "title"), number(record, "players"), stamp(record)}
		if row[3] == "" {
			row[3] = cell(record, "name")
		}
		if o.details {
			row = append(row, cell(record, "organization"), cell(record, "description"))
		}
		cw.Write(row)
		written++
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return written, err
	}
	if o.format == "jsonl" {
		escaped := escapeControls(buf.Bytes())
		buf.Reset()
		buf.Write(escaped)
	}
	return written, nil
}

// details reads the detail record of a dashboard entry.
func details(ctx context.Context, c *gamedata.Client, e gamedata.DashboardEntry) (gamedata.Fields, error) {
	if e.IsServer() {
		s, err := c.Servers.Get(ctx, e.ID)
		if err != nil {
			return gamedata.Fields{}, fmt.Errorf("details of %s: %w", name(e), err)
		}
		return s.Fields, nil
	}
	p, err := c.Packages.Get(ctx, e.Kind, e.Ident)
	if err != nil {
		return gamedata.Fields{}, fmt.Errorf("details of %s: %w", name(e), err)
	}
	return p.Fields, nil
}

// name says which entry a message is about, its identifiers sanitized:
// they are the service's text as much as a title is.
func name(e gamedata.DashboardEntry) string {
	if e.IsServer() {
		return "server " + gamedata.NewUntrusted(e.ID).String()
	}
	return gamedata.NewUntrusted(e.Kind + "/" + e.Ident).String()
}

// cell is a text member for a spreadsheet, as safe makes it.
func cell(f gamedata.Fields, member string) string {
	u, ok := f.Text(member)
	if !ok {
		return ""
	}
	return safe(u.Unsanitized())
}

// safe is service text for a spreadsheet cell: sanitized with
// Untrusted.String, and kept from being read as a formula.
func safe(raw string) string {
	s := gamedata.NewUntrusted(raw).String()
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		s = "'" + s
	}
	return s
}

// number is a metric; null (unavailable) is an empty cell, never 0.
func number(f gamedata.Fields, member string) string {
	if v, ok := f.Metric(member).Get(); ok {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// stamp is when the record was last updated or seen, in UTC.
func stamp(f gamedata.Fields) string {
	for _, member := range []string{"updatedAt", "lastSeen"} {
		if t, ok := f.Time(member); ok {
			return t.UTC().Format(time.RFC3339Nano)
		}
	}
	return ""
}

// escapeControls rewrites, in compact JSON, every rune a terminal could act
// on (DEL, C1 controls, bidi controls, line and paragraph separators) as a
// \u escape. Such runes can only occur inside strings, where the escape
// means the same, so the data is unchanged; C0 controls are escaped by JSON
// already.
func escapeControls(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if dangerous(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

func dangerous(r rune) bool {
	switch {
	case r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}
