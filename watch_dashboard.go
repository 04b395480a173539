package gamedata

import (
	"bytes"
	"context"
	"iter"
	"time"
)

// Watch follows the dashboard directory, as the service has no events:
// once per interval every, jittered, it walks the directory from opts.Page
// (each page a conditional request, so an unchanged page costs a 304
// without a body when the service sends an ETag or Last-Modified) and
// diffs the round against the previous one by identity (kind and ident, or
// a server's id). The first round yields Added for every entry; later
// rounds yield Added, then Updated for an entry whose content changed,
// then Removed for an entry no longer listed.
//
// A round is complete only when its walk ended on a page whose hasNext is
// false. A round that ended any other way yields its error (a *PageError)
// and diffs nothing, so an incomplete round never reports entries as
// removed: a fault, a bound of the walk (DefaultMaxItems, ErrWalkUnbounded),
// or a page after the first redirected because the directory shrank while
// the round ran (ErrPageOutOfRange; All ends there without an error). The
// watch goes on with the next round. A round that failed with a
// Retry-After delays the next, but never by more than four intervals or an
// hour; its error then holds a *WatchDelayError that says so.
//
// Every 16 rounds, or every hour, a round reads every page in full, in
// case the service answers 304 to a validator that no longer matches its
// content. Bad arguments, or a Client that NewClient did not make, yield
// one error before any request. The watch ends, with no error and no
// goroutine left behind, when ctx ends or the loop breaks.
//
// The call options apply to every page, but for the cache mode, which the
// watch sets; a WithResponseInto among them receives each page's Response
// as the round reads it.
func (s *DashboardService) Watch(ctx context.Context, opts *DashboardOptions, every time.Duration, callOpts ...CallOption) iter.Seq2[Change[DashboardEntry], error] {
	return func(yield func(Change[DashboardEntry], error) bool) {
		c, err := checkWatch(ctx, (*service)(s), every, callOpts)
		if err != nil {
			yield(Change[DashboardEntry]{}, err)
			return
		}
		w := &directoryWatch{s: s, opts: valueOf(opts), callOpts: callOpts}
		pollLoop(ctx, c.clock, every, 1, 0.1, w.poll, yield)
	}
}

// directoryWatch is the one target of Dashboard.Watch: the directory,
// with the last round that was complete.
type directoryWatch struct {
	s        *DashboardService
	opts     DashboardOptions
	callOpts []CallOption
	last     *directoryRound
}

// poll walks the directory once, and returns what changed since the last
// complete round.
func (w *directoryWatch) poll(ctx context.Context, _ int, full bool) (iter.Seq[Change[DashboardEntry]], error) {
	round, err := w.s.round(ctx, w.opts, pollOptions(w.callOpts, full))
	if err != nil {
		return nil, err
	}
	prev := w.last
	w.last = round
	return round.diff(prev), nil
}

// directoryRound is the directory as one walk saw it.
type directoryRound struct {
	entries []DashboardEntry
	index   map[string]int // identity to position in entries
}

// round walks the whole directory. It returns without an error only when
// the walk ended on hasNext false: a walk that fails on a shrinking
// directory has no other way to end without one.
func (s *DashboardService) round(ctx context.Context, opts DashboardOptions, callOpts []CallOption) (*directoryRound, error) {
	r := &directoryRound{index: map[string]int{}}
	for e, err := range s.walk(ctx, opts, WalkOptions{}, shrinkFails, callOpts) {
		if err != nil {
			return nil, err
		}
		r.index[dashboardIdentity(e)] = len(r.entries)
		r.entries = append(r.entries, e)
	}
	return r, nil
}

// diff yields the changes from prev to r; a nil prev is an empty
// directory.
func (r *directoryRound) diff(prev *directoryRound) iter.Seq[Change[DashboardEntry]] {
	if prev == nil {
		prev = &directoryRound{}
	}
	return func(yield func(Change[DashboardEntry]) bool) {
		var updated []Change[DashboardEntry]
		for _, e := range r.entries {
			i, ok := prev.index[dashboardIdentity(e)]
			switch {
			case !ok:
				if !yield(Change[DashboardEntry]{Op: Added, New: e}) {
					return
				}
			case !bytes.Equal(prev.entries[i].JSON(), e.JSON()):
				updated = append(updated, Change[DashboardEntry]{Op: Updated, Old: prev.entries[i], New: e})
			}
		}
		for _, ch := range updated {
			if !yield(ch) {
				return
			}
		}
		for _, e := range prev.entries {
			if _, ok := r.index[dashboardIdentity(e)]; !ok {
				if !yield(Change[DashboardEntry]{Op: Removed, Old: e}) {
					return
				}
			}
		}
	}
}
