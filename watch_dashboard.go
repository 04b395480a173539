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
// A round that fails part-way yields the walk's error (a *PageError) and
// diffs nothing, so an incomplete round never reports entries as removed;
// the watch goes on with the next round. Every 16 rounds, or every hour,
// a round reads every page in full, in case the service answers 304 to a
// validator that no longer matches its content. Bad arguments yield one
// error before any request. The watch ends, with no error and no
// goroutine left behind, when ctx ends or the loop breaks.
func (s *DashboardService) Watch(ctx context.Context, opts *DashboardOptions, every time.Duration) iter.Seq2[Change[DashboardEntry], error] {
	return func(yield func(Change[DashboardEntry], error) bool) {
		if err := checkWatch(ctx, every); err != nil {
			yield(Change[DashboardEntry]{}, err)
			return
		}
		c := s.client
		pace := pacer{clock: c.clock, gap: every, jitter: 0.1}
		var guard fullReadGuard
		var last *directoryRound
		for {
			if pace.wait(ctx) != nil {
				return
			}
			full := guard.due(c.clock.Now())
			round, err := s.round(pollContext(ctx, full), opts)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				pace.failed(err)
				if !yield(Change[DashboardEntry]{}, err) {
					return
				}
				continue
			}
			changed := false
			for ch := range round.diff(last) {
				changed = true
				if !yield(ch, nil) {
					return
				}
			}
			guard.polled(c.clock.Now(), full, changed)
			last = round
		}
	}
}

// directoryRound is the directory as one walk saw it.
type directoryRound struct {
	entries []DashboardEntry
	index   map[string]int // identity to position in entries
}

// round walks the whole directory.
func (s *DashboardService) round(ctx context.Context, opts *DashboardOptions) (*directoryRound, error) {
	r := &directoryRound{index: map[string]int{}}
	for e, err := range s.All(ctx, opts) {
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
