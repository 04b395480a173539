// Package collect is what one run of gamedata sync does: it walks the
// directory into the store's series, then fetches only what can have
// changed (detail records of new and changed entries, analytics reports
// older than their refresh age) and the activity history, committing as
// it goes. An item that fails after the client's retries is recorded and
// skipped; an interrupt stops the run where it is and keeps what it
// fetched.
//
// Over an unchanged platform of N entries a run costs ⌈N/100⌉ directory
// pages (each a 304 with a cache) and one activity request.
package collect

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// Run runs once: it records itself in the runs table, walks the
// directory of o.Kind, fetches what is due and the activity history,
// and records how it ended. The Summary says what it did, even when it
// returns an error: an interrupt (ctx ended; what was fetched is kept),
// items that failed (recorded in the failures table and fetched again by
// the next run), or a database that could not be written.
func Run(ctx context.Context, c *gamedata.Client, db *store.DB, o Options) (Summary, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	x := &runner{c: c, db: db, o: o, base: c.Stats().Requests}
	if o.BytesRead != nil {
		x.baseBytes = o.BytesRead()
	}
	start := o.Now()
	// The directory's first entry is read before anything is written: a
	// kind the service does not know is answered with another, and a run
	// of it would write that other kind's entries under this one.
	next, stop := iter.Pull2(c.Dashboard.All(ctx, &gamedata.DashboardOptions{Kind: o.Kind, ListOptions: gamedata.ListOptions{PageSize: pageSize}}, nil))
	defer stop()
	first, ferr, more := next()
	if more && ferr == nil {
		if err := servedKind(o.Kind, first); err != nil {
			return x.sum, fmt.Errorf("%w; nothing was written: check --kind", err)
		}
	}
	r, err := db.BeginRun(written(ctx), o.Kind, start)
	if err != nil {
		return x.sum, err
	}
	x.r = r
	x.sum.Run = r.ID
	err = x.stages(ctx, start, pulled{first, ferr, more, next})
	x.sum.Outcome = store.OutcomeOK
	switch {
	case ctx.Err() != nil:
		x.sum.Outcome = store.OutcomeInterrupted
		err = fmt.Errorf("interrupted (%w): what was fetched is kept; run sync again to go on", context.Cause(ctx))
	case err != nil:
		x.sum.Outcome = store.OutcomeFailed
	case x.sum.Failed > 0:
		x.sum.Outcome = store.OutcomeFailed
		err = fmt.Errorf("%d item(s) failed after their retries: see the failures table (run %d); the next run fetches them again", x.sum.Failed, r.ID)
	}
	x.count()
	end := o.Now()
	x.sum.Elapsed = end.Sub(start)
	if ferr := db.FinishRun(written(ctx), r, x.sum.Outcome, end); ferr != nil && err == nil {
		err = ferr
	}
	return x.sum, err
}

// stages runs the stages in order, the walk going on from dir. Only an
// interrupt, a database that cannot be written or a service that cannot
// be reached stops it; a failed item is recorded and passed over.
func (x *runner) stages(ctx context.Context, now time.Time, dir pulled) error {
	complete, err := x.walk(ctx, dir)
	if err != nil {
		return err
	}
	if x.down != nil {
		return x.down
	}
	x.sum.Complete = complete
	if complete {
		gone, err := x.db.EndWalk(written(ctx), x.r)
		if err != nil {
			return err
		}
		x.sum.Gone = gone
	}
	for _, stage := range []func() error{
		func() error { return x.details(ctx, now) },
		func() error { return x.reports(ctx, now) },
		func() error { return x.activity(ctx) },
	} {
		if err := stage(); err != nil {
			return err
		}
		if x.down != nil {
			return x.down
		}
	}
	return nil
}

// pulled is a walk of the directory whose first result was read.
type pulled struct {
	entry gamedata.DashboardEntry
	err   error
	ok    bool
	next  func() (gamedata.DashboardEntry, error, bool)
}

// all is every result of the walk, its first one included.
func (p pulled) all(yield func(gamedata.DashboardEntry, error) bool) {
	for e, err, ok := p.entry, p.err, p.ok; ok; e, err, ok = p.next() {
		if !yield(e, err) {
			return
		}
	}
}

// walk reads the directory a page at a time and writes each page in one
// transaction, so memory holds a page, not the directory. It reports
// whether the walk reached the last page; a page that fails after its
// retries is recorded and ends the walk, and the run goes on. An entry
// of another kind than the run's is recorded as a failure and skipped.
func (x *runner) walk(ctx context.Context, dir pulled) (bool, error) {
	batch := make([]store.Entry, 0, pageSize)
	x.progress(StageDirectory, 0, -1)
	for e, err := range dir.all {
		if err != nil {
			return false, x.walkFailed(ctx, batch, err)
		}
		if err := servedKind(x.o.Kind, e); err != nil {
			if err := x.fail(ctx, StageDirectory, entryName(e), err); err != nil {
				return false, err
			}
			continue
		}
		if !nameable(e) {
			x.sum.Unnamed++
		}
		batch = append(batch, entryOf(e))
		if len(batch) == pageSize {
			if err := x.saveEntries(ctx, batch); err != nil {
				return false, err
			}
			batch = batch[:0]
		}
	}
	if err := x.saveEntries(ctx, batch); err != nil {
		return false, err
	}
	// The walk reached the last page: the directory's length is known
	// now, and the stage is done.
	x.progress(StageDirectory, x.sum.Entries, x.sum.Entries)
	return true, nil
}

// saveEntries writes a batch of the walk in one transaction, and records
// as failed each entry the store refused.
func (x *runner) saveEntries(ctx context.Context, batch []store.Entry) error {
	if len(batch) == 0 {
		return nil
	}
	x.count()
	c, err := x.db.SaveEntries(written(ctx), x.r, batch)
	if err != nil {
		return err
	}
	x.sum.Entries += len(batch)
	x.sum.New += c.New
	x.sum.Changed += c.Changed
	for _, r := range c.Refused {
		if err := x.fail(ctx, StageDirectory, keyName(r.Key), r.Err); err != nil {
			return err
		}
	}
	x.progress(StageDirectory, x.sum.Entries, -1)
	return nil
}

// walkFailed ends a walk that failed with err: the entries read before it
// (batch) are written, and the failure is the interrupt, or recorded
// against the page that failed.
func (x *runner) walkFailed(ctx context.Context, batch []store.Entry, err error) error {
	if ferr := x.saveEntries(ctx, batch); ferr != nil {
		return ferr
	}
	if interrupted(ctx, err) {
		return ctx.Err()
	}
	item := "directory"
	var pe *gamedata.PageError
	if errors.As(err, &pe) {
		item = fmt.Sprintf("page %d", pe.Page)
	}
	return x.fail(ctx, StageDirectory, item, err)
}

// nameable reports whether a request can name the entry: "." and ".."
// are dot segments that URL resolution removes from a path.
func nameable(e gamedata.DashboardEntry) bool {
	return e.ID != "" || (e.Ident != "" && e.Ident != "." && e.Ident != "..")
}
