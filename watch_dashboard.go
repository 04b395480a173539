package gamedata

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"slices"
	"time"
)

// Watch follows the dashboard directory, as the service has no events:
// once per interval every, jittered, it walks the directory from opts.Page
// (each page a conditional request, so an unchanged page costs a 304
// without a body when the service sends an ETag or Last-Modified) and
// diffs the round against the previous one by identity (kind and ident, or
// a server's id). The first round yields Added for every entry; later
// rounds yield Added, then Updated for an entry whose content changed,
// then Removed for an entry no longer listed. A round reads its pages one
// after another, and an entry that moves across a page boundary while it
// runs is missing from it though still listed; so an entry missing from
// a round is Removed only once that is confirmed, when its record answers
// 404 (one request, sent only for a missing entry) or a later round reads
// the directory exactly as the round before it did. Until then it is held
// as it was last seen.
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
		c, cfg, err := checkWatch(ctx, (*service)(s), every, callOpts)
		if err != nil {
			yield(Change[DashboardEntry]{}, err)
			return
		}
		w := &directoryWatch{c: c, cfg: cfg, opts: valueOf(opts)}
		pollLoop(ctx, c.clock, every, 1, 0.1, w.poll, yield)
	}
}

// directoryWatch is the one target of Dashboard.Watch: the directory as
// the last complete round read it, and as the watch has reported it.
type directoryWatch struct {
	c    *Client
	cfg  callConfig // the watch's options, resolved
	opts DashboardOptions
	last *directoryRound // the last complete round, as read
	// known is what the watch has reported present: the last round, and
	// the entries missing from it that are not yet known to be gone.
	known *directoryRound
}

// poll walks the directory once, and returns what changed since the last
// complete round.
//
// A round reads its pages one after another, so an entry that moves
// across a page boundary while it runs (the directory lost an entry on a
// page already read, say) is missing from it although it is still
// listed. An entry missing from a round is therefore reported removed
// only once that is confirmed: its record answers 404, or the round read
// the directory exactly as the round before it did, so neither saw it
// mid-change. Until then it is kept as it was last seen, and a round that
// lists it again reports nothing for it unless it changed.
func (w *directoryWatch) poll(ctx context.Context, _ int, full bool) (iter.Seq[Change[DashboardEntry]], error) {
	round, err := readRound(ctx, w.c, pollConfig(w.cfg, full), w.opts)
	if err != nil {
		return nil, err
	}
	quiet := w.last != nil && round.equal(w.last)
	w.last = round
	known := w.known
	if known == nil {
		known = &directoryRound{}
	}
	var changes, updated, removed []Change[DashboardEntry]
	next := &directoryRound{index: map[string]int{}}
	for _, e := range round.entries {
		next.add(e)
		i, ok := known.index[dashboardIdentity(e)]
		switch {
		case !ok:
			changes = append(changes, Change[DashboardEntry]{Op: Added, New: e})
		case !bytes.Equal(known.entries[i].JSON(), e.JSON()):
			updated = append(updated, Change[DashboardEntry]{Op: Updated, Old: known.entries[i], New: e})
		}
	}
	for _, e := range known.entries {
		if _, ok := round.index[dashboardIdentity(e)]; ok {
			continue
		}
		if quiet || w.gone(ctx, e) {
			removed = append(removed, Change[DashboardEntry]{Op: Removed, Old: e})
		} else {
			next.add(e)
		}
	}
	w.known = next
	return slices.Values(slices.Concat(changes, updated, removed)), nil
}

// gone tells whether the record of e, an entry missing from a round,
// answers 404. Any other answer, a failure included, leaves the question
// to a later round.
func (w *directoryWatch) gone(ctx context.Context, e DashboardEntry) bool {
	cfg := pollConfig(w.cfg, false)
	cfg.into = nil // a round's Response is its pages'
	var err error
	if e.ID != "" {
		_, err = getServer(ctx, w.c, cfg, e.ID)
	} else {
		_, err = getPackage(ctx, w.c, cfg, e.Kind, e.Ident)
	}
	return errors.Is(err, ErrNotFound)
}

// directoryRound is the directory as one walk saw it.
type directoryRound struct {
	entries []DashboardEntry
	index   map[string]int // identity to position in entries
}

// add appends e.
func (r *directoryRound) add(e DashboardEntry) {
	r.index[dashboardIdentity(e)] = len(r.entries)
	r.entries = append(r.entries, e)
}

// equal tells whether r and o hold the same entries, as sent, in the
// same order.
func (r *directoryRound) equal(o *directoryRound) bool {
	return slices.EqualFunc(r.entries, o.entries, func(a, b DashboardEntry) bool { return bytes.Equal(a.JSON(), b.JSON()) })
}

// readRound walks the whole directory. It returns without an error only
// when the walk ended on hasNext false: a walk that fails on a shrinking
// directory has no other way to end without one.
func readRound(ctx context.Context, c *Client, cfg callConfig, opts DashboardOptions) (*directoryRound, error) {
	r := &directoryRound{index: map[string]int{}}
	for e, err := range walkDirectory(ctx, c, cfg, dashboard, opts.ListOptions, WalkOptions{}, dashboardKey, shrinkFails, opts.with) {
		if err != nil {
			return nil, err
		}
		r.add(e)
	}
	return r, nil
}
