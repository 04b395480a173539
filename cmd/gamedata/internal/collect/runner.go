package collect

import (
	"context"
	"errors"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// pageSize is the directory's page size, the largest the service allows,
// and the size of every batch a run writes.
const pageSize = 100

// runner is one run: what its stages (collect.go's walk, fetch.go's
// details, reports and activity) share, and how each records an item
// fetched or failed. Each stage takes the run's context, which ends its
// requests; it writes under written(ctx), which an interrupt does not
// end, so that the run writes what it fetched before it stops.
type runner struct {
	c         *gamedata.Client
	db        *store.DB
	o         Options
	r         *store.Run
	base      int64 // the client's requests before the run
	baseBytes int64 // the bytes read before the run
	sum       Summary
	// down is the first failure that said the service cannot be reached:
	// the run records it and stops, rather than fail every item left.
	down error
}

// count brings the run's request count up to date before a write.
func (x *runner) count() {
	x.r.Requests = x.c.Stats().Requests - x.base
	x.sum.Requests = x.r.Requests
	if x.o.BytesRead != nil {
		n := x.o.BytesRead() - x.baseBytes
		x.r.BytesRead, x.sum.BytesRead = &n, &n
	}
	x.sum.Added, x.sum.ChangedRows = x.r.Added, x.r.Changed
}

// fail records an item that failed, and the run goes on; a failure that
// says the service cannot be reached also ends the run once the stage
// has written what it fetched. The error is kept without its
// *gamedata.ItemError: the failures table names the item, and the
// error's index, within one batch of requests, says less.
func (x *runner) fail(ctx context.Context, stage, item string, err error) error {
	if x.down == nil && unreachable(err) {
		x.down = err
	}
	x.sum.Failed++
	x.count()
	var ie *gamedata.ItemError
	if errors.As(err, &ie) {
		err = ie.Err
	}
	return x.db.RecordFailure(written(ctx), x.r, stage, item, err.Error(), x.o.Now())
}

// written is the context of the run's writes: ctx's values, without its
// end.
func written(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// interrupted reports whether ctx, the run's, was interrupted: err is
// then the interrupt, not a failure of the item.
func interrupted(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err()))
}

func (x *runner) progress(stage string, done, total int) {
	if x.o.Progress != nil {
		x.o.Progress(Progress{Stage: stage, Done: done, Total: total})
	}
}
