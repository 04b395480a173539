package collect

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// details fetches the detail records that are due, a batch of up to a
// page at a time, o.Concurrency at once, and writes each batch in one
// transaction, the records fetched before an interrupt included.
func (x *runner) details(ctx context.Context, now time.Time) error {
	total, _, err := x.db.DueCounts(ctx, x.r, now, x.o.DetailsEvery, x.o.HistoryEvery)
	if err != nil {
		return readErr(ctx, err)
	}
	x.progress(StageDetails, 0, total)
	// Each item fetched or failed moves the bar at once: a batch's
	// records are written together, but an interrupt writes those
	// fetched, so each is kept from the moment it arrives.
	done := 0
	tick := func() { done++; x.progress(StageDetails, done, total) }
	var after store.Key
	for {
		due, err := x.db.DueDetails(ctx, x.r, after, pageSize, now, x.o.DetailsEvery)
		if err != nil {
			return readErr(ctx, err)
		}
		if len(due) == 0 {
			return nil
		}
		after = due[len(due)-1].Key
		recs, err := x.fetchDetails(ctx, due, tick)
		if err != nil {
			return err
		}
		x.count()
		if err := x.db.SaveDetails(written(ctx), x.r, recs, x.o.Now()); err != nil {
			return err
		}
		x.sum.Details += len(recs)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if x.down != nil {
			return nil
		}
	}
}

// fetchDetails fetches the records of due entries: packages, then
// servers, calling tick for each fetched or failed. A failed item is
// recorded; an interrupt, or a failure that says the service cannot be
// reached, leaves the rest unfetched (and unrecorded: they are due next
// run) and the records read so far to be written.
func (x *runner) fetchDetails(ctx context.Context, due []store.Due, tick func()) ([]store.Detail, error) {
	fetches, cancel := context.WithCancel(ctx)
	defer cancel()
	var pkgs, srvs []store.Due
	var refs []gamedata.PackageRef
	var ids []string
	for _, d := range due {
		if d.ID != "" {
			srvs = append(srvs, d)
			ids = append(ids, d.ID)
		} else {
			pkgs = append(pkgs, d)
			refs = append(refs, gamedata.PackageRef{Kind: d.Kind, Ident: d.Ident})
		}
	}
	recs := make([]store.Detail, 0, len(due))
	keep := func(d store.Due, err error, detail func() store.Detail) error {
		switch {
		case err == nil:
			recs = append(recs, detail())
		case interrupted(ctx, err), x.down != nil:
			return nil
		default:
			if err := x.fail(ctx, StageDetails, d.Key.String(), err); err != nil {
				return err
			}
			if x.down != nil {
				cancel()
			}
		}
		tick()
		return nil
	}
	i := 0
	for p, err := range x.c.Packages.GetMany(fetches, refs, x.o.Concurrency) {
		d := pkgs[i]
		i++
		if err := keep(d, err, func() store.Detail { return packageDetail(d, p) }); err != nil {
			return nil, err
		}
	}
	i = 0
	for s, err := range x.c.Servers.GetMany(fetches, ids, x.o.Concurrency) {
		d := srvs[i]
		i++
		if err := keep(d, err, func() store.Detail { return serverDetail(d, s) }); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// reports fetches the analytics reports that are due, a batch of up to
// a page at a time, o.Concurrency at once, and writes each in a
// transaction of its own, in order, as it arrives.
func (x *runner) reports(ctx context.Context, now time.Time) error {
	_, total, err := x.db.DueCounts(ctx, x.r, now, x.o.DetailsEvery, x.o.HistoryEvery)
	if err != nil {
		return readErr(ctx, err)
	}
	x.progress(StageReports, 0, total)
	done := 0
	var after store.Key
	for {
		keys, err := x.db.DueReports(ctx, x.r, after, pageSize, now, x.o.HistoryEvery)
		if err != nil {
			return readErr(ctx, err)
		}
		if len(keys) == 0 {
			return nil
		}
		after = keys[len(keys)-1]
		if err := x.saveReports(ctx, keys, func() { done++; x.progress(StageReports, done, total) }); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if x.down != nil {
			return nil
		}
	}
}

// saveReports fetches a batch of reports and writes each as it arrives,
// calling step after each one written or recorded as failed. It returns
// once every fetch it started has ended.
func (x *runner) saveReports(ctx context.Context, keys []store.Key, step func()) error {
	fetches, cancel := context.WithCancel(ctx)
	results, wait := x.fetchReports(fetches, keys)
	defer wait()
	defer cancel() // a write that fails ends the batch's fetches
	for i, ch := range results {
		r := <-ch
		if interrupted(ctx, r.err) || (r.err != nil && x.down != nil) {
			continue // the rest of the batch ends the same way, or arrived before
		}
		err := r.err
		if err == nil {
			x.count()
			err = x.db.SaveReport(written(ctx), x.r, keys[i], historyRows(r.rep), x.o.Now())
			if err != nil && !errors.Is(err, store.ErrRepeatedTime) {
				return err
			}
		}
		if err != nil {
			if err := x.fail(ctx, StageReports, keys[i].String(), err); err != nil {
				return err
			}
			if x.down != nil {
				cancel() // the service is gone: the rest is due next run
			}
		} else {
			x.sum.Reports++
		}
		step()
	}
	return nil
}

// fetched is a report, or why there is none.
type fetched struct {
	rep *gamedata.PackageReport
	err error
}

// fetchReports fetches the reports of keys, in order, o.Concurrency at a
// time, each into its own channel; wait returns when every fetch has
// ended. Once ctx ends, the fetches not yet started end with its error.
func (x *runner) fetchReports(ctx context.Context, keys []store.Key) (results []chan fetched, wait func()) {
	results = make([]chan fetched, len(keys))
	for i := range results {
		results[i] = make(chan fetched, 1) // a fetch never waits for its reader
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		slots := make(chan struct{}, x.o.Concurrency)
		for i, k := range keys {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				results[i] <- fetched{err: ctx.Err()}
				continue
			}
			wg.Go(func() {
				defer func() { <-slots }()
				rep, err := x.c.Analytics.Package(ctx, k.Kind, k.Ident)
				results[i] <- fetched{rep, err}
			})
		}
	})
	return results, wg.Wait
}

// activity fetches the platform's activity history and writes it.
func (x *runner) activity(ctx context.Context) error {
	x.progress(StageActivity, 0, 1)
	h, err := x.c.Activity.History(ctx, &gamedata.ActivityOptions{Range: x.o.Range})
	if interrupted(ctx, err) {
		return ctx.Err()
	}
	if err == nil {
		x.count()
		err = x.db.SaveActivity(written(ctx), x.r, points(h), x.o.Now())
		if err != nil && !errors.Is(err, store.ErrRepeatedTime) {
			return err
		}
	}
	if err != nil {
		return x.fail(ctx, StageActivity, "range "+x.o.Range, err)
	}
	x.sum.Points = len(h.Points)
	x.progress(StageActivity, 1, 1)
	return nil
}

// readErr is a failed read of the database under ctx, the run's: the
// interrupt when there was one.
func readErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
