package main

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/message"
)

// pagesOf is how many pages the directory has, as p says, or 0 when it
// does not: the service documents only hasNext, so its totalPages, or
// else its total over its pageSize, are read when sent.
func pagesOf(p gamedata.Pagination) int {
	if n, ok := p.Metric("totalPages").Get(); ok && n >= 1 && n <= math.MaxInt32 {
		return int(n)
	}
	total, okT := p.Metric("total").Get()
	size, okS := p.Metric("pageSize").Get()
	if okT && okS && total >= 0 && size >= 1 && total/size <= math.MaxInt32 {
		return int(math.Ceil(total / size))
	}
	return 0
}

// sayMorePages says on stderr, when a person reads a page on a terminal
// and more follow, how to read them: a table of one page looks like the
// whole directory.
func sayMorePages(c common, d directoryFlags, command string, p gamedata.Pagination) {
	if d.All || !c.IO.outTTY || !p.HasNext {
		return
	}
	of := ""
	if n := pagesOf(p); n > p.Page {
		of = fmt.Sprintf(" of %d", n)
	}
	message.Line(c.IO.errOut, "%s: page %d%s: --page %d or --all", command, p.Page, of, p.Page+1)
}

// pastTheEnd turns err, when it is a --page past the directory's last
// page (the service redirects such a request), into what the last page
// is, which first (a read of page 1) learns; err otherwise.
func pastTheEnd(ctx context.Context, err error, command string, page int, first func(context.Context) (gamedata.Pagination, error)) error {
	if !errors.Is(err, gamedata.ErrPageOutOfRange) || page <= 1 {
		return err
	}
	p, ferr := first(ctx)
	if n := pagesOf(p); ferr == nil && n >= 1 {
		return &message.Explained{Msg: fmt.Sprintf("%s --page %d: past the directory's end; the last page is %d", command, page, n), Err: err}
	}
	return &message.Explained{Msg: fmt.Sprintf("%s --page %d: past the directory's last page; give a smaller --page", command, page), Err: err}
}
