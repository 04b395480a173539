package collect

import (
	"errors"
	"time"

	"github.com/gamedata-go/gamedata"
	"github.com/gamedata-go/gamedata/cmd/gamedata/internal/store"
)

// details fetches the detail records that are due, a batch of up to a
// page at a time, o.Concurrency at once, and writes each batch in one
// transaction, the records fetched before an interrupt included.
func (x *runner) details(now time.Time) error {
	total, _, err := x.db.DueCounts(x.ctx, x.r, now, x.o.DetailsEvery, x.o.HistoryEvery)
	if err != nil {
		return x.readErr(err)
	}
	x.progress(StageDetails, 0, total)
	done := 0
	var after store.Key
	for {
		due, err := x.db.DueDetails(x.ctx, x.r, after, pageSize, now, x.o.DetailsEvery)
		if err != nil {
			return x.readErr(err)
		}
		if len(due) == 0 {
			return nil
		}
		after = due[len(due)-1].Key
		failed := x.sum.Failed
		recs, err := x.fetchDetails(due)
		if err != nil {
			return err
		}
		x.count()
		if err := x.db.SaveDetails(x.wctx, x.r, recs, x.o.Now()); err != nil {
			return err
		}
		x.sum.Details += len(recs)
		done += len(recs) + x.sum.Failed - failed
		x.progress(StageDetails, done, total)
		if x.ctx.Err() != nil {
			return x.ctx.Err()
		}
	}
}

// fetchDetails fetches the records of due entries: packages, then
// servers. A failed item is recorded; an interrupt leaves the rest
// unfetched and the records read so far to be written.
func (x *runner) fetchDetails(due []store.Due) ([]store.Detail, error) {
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
		case !x.interrupted(err):
			return x.fail(StageDetails, d.Key.String(), err)
		}
		return nil
	}
	i := 0
	for p, err := range x.c.Packages.GetMany(x.ctx, refs, x.o.Concurrency) {
		d := pkgs[i]
		i++
		if err := keep(d, err, func() store.Detail { return packageDetail(d, p) }); err != nil {
			return nil, err
		}
	}
	i = 0
	for s, err := range x.c.Servers.GetMany(x.ctx, ids, x.o.Concurrency) {
		d := srvs[i]
		i++
		if err := keep(d, err, func() store.Detail { return serverDetail(d, s) }); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// reports fetches the analytics reports that are due, one at a time,
// each written in a transaction of its own.
func (x *runner) reports(now time.Time) error {
	_, total, err := x.db.DueCounts(x.ctx, x.r, now, x.o.DetailsEvery, x.o.HistoryEvery)
	if err != nil {
		return x.readErr(err)
	}
	x.progress(StageReports, 0, total)
	done := 0
	var after store.Key
	for {
		keys, err := x.db.DueReports(x.ctx, x.r, after, pageSize, now, x.o.HistoryEvery)
		if err != nil {
			return x.readErr(err)
		}
		if len(keys) == 0 {
			return nil
		}
		after = keys[len(keys)-1]
		for _, k := range keys {
			rep, err := x.c.Analytics.Package(x.ctx, k.Kind, k.Ident)
			if x.interrupted(err) {
				return x.ctx.Err()
			}
			if err == nil {
				x.count()
				err = x.db.SaveReport(x.wctx, x.r, k, historyRows(rep), x.o.Now())
				if err != nil && !errors.Is(err, store.ErrRepeatedTime) {
					return err
				}
			}
			if err != nil {
				if err := x.fail(StageReports, k.String(), err); err != nil {
					return err
				}
			} else {
				x.sum.Reports++
			}
			done++
			x.progress(StageReports, done, total)
		}
	}
}

// activity fetches the platform's activity history and writes it.
func (x *runner) activity() error {
	x.progress(StageActivity, 0, 1)
	h, err := x.c.Activity.History(x.ctx, &gamedata.ActivityOptions{Range: x.o.Range})
	if x.interrupted(err) {
		return x.ctx.Err()
	}
	if err == nil {
		x.count()
		err = x.db.SaveActivity(x.wctx, x.r, points(h), x.o.Now())
		if err != nil && !errors.Is(err, store.ErrRepeatedTime) {
			return err
		}
	}
	if err != nil {
		return x.fail(StageActivity, "range "+x.o.Range, err)
	}
	x.sum.Points = len(h.Points)
	x.progress(StageActivity, 1, 1)
	return nil
}

// readErr is a failed read of the database: the interrupt when there was
// one.
func (x *runner) readErr(err error) error {
	if x.ctx.Err() != nil {
		return x.ctx.Err()
	}
	return err
}
