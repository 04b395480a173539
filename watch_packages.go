package gamedata

import (
	"bytes"
	"context"
	"errors"
	"iter"
	"time"
)

// Watch follows packages, as the service has no events: it polls every
// ref once per interval every, the polls spread over the interval with
// jitter rather than sent in a burst, and yields what changed. The first
// poll of a package that exists yields Added; later polls yield Updated
// when its content changed, Removed when it answers 404, and Added when it
// comes back.
//
// Each poll is a conditional request, whatever the cached record's
// freshness, so an unchanged package costs a 304 without a body (when the
// service sends an ETag or Last-Modified). After 16 polls without a
// change, or an hour, a package is read in full once, in case the service
// answers 304 to a validator that no longer matches its content. Polls
// wait on the client's rate limiter like any request.
//
// A poll that fails yields an *ItemError with the ref's index in refs, and
// the watch goes on. A poll that failed with a Retry-After delays the next
// poll, but never by more than four intervals or an hour; its error then
// holds a *WatchDelayError that says so. Bad arguments, or a Client that
// NewClient did not make, yield one error before any request. The watch
// ends, with no error and no goroutine left behind, when ctx ends or the
// loop breaks; it also ends at once when refs is empty.
//
// The call options apply to every poll, but for the cache mode, which the
// watch sets; a WithResponseInto among them receives each poll's Response
// before its change or error is yielded.
func (s *PackagesService) Watch(ctx context.Context, refs []PackageRef, every time.Duration, opts ...CallOption) iter.Seq2[Change[*Package], error] {
	return func(yield func(Change[*Package], error) bool) {
		c, cfg, err := checkWatch(ctx, (*service)(s), every, opts)
		if err != nil {
			yield(Change[*Package]{}, err)
			return
		}
		for i, r := range refs {
			if err := checkSegments([]string{"package kind", "package ident"}, r.Kind, r.Ident); err != nil {
				yield(Change[*Package]{}, &ItemError{Index: i, Err: err})
				return
			}
		}
		if len(refs) == 0 {
			return
		}
		w := &packagesWatch{c: c, cfg: cfg, refs: refs, last: make([]*Package, len(refs))}
		pollLoop(ctx, c.clock, every, len(refs), 0.5, w.poll, yield)
	}
}

// packagesWatch is the targets of Packages.Watch: one a package, with
// what its last poll read (nil when it answered 404).
type packagesWatch struct {
	c    *Client
	cfg  callConfig // the watch's options, resolved
	refs []PackageRef
	last []*Package
}

// poll reads package i, and returns its change since the last poll.
func (w *packagesWatch) poll(ctx context.Context, i int, full bool) (iter.Seq[Change[*Package]], error) {
	p, err := getPackage(ctx, w.c, pollConfig(w.cfg, full), w.refs[i].Kind, w.refs[i].Ident)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, &ItemError{Index: i, Err: err}
	}
	change, changed := packageChange(w.last[i], p, err)
	w.last[i] = p
	return func(yield func(Change[*Package]) bool) {
		if changed {
			yield(change)
		}
	}, nil
}

// packageChange compares a poll's result with the last one: p, or err
// matching ErrNotFound for a 404.
func packageChange(old, p *Package, err error) (Change[*Package], bool) {
	switch {
	case errors.Is(err, ErrNotFound) && old != nil:
		return Change[*Package]{Op: Removed, Old: old}, true
	case err != nil, p == nil && old == nil:
		return Change[*Package]{}, false
	case old == nil:
		return Change[*Package]{Op: Added, New: p}, true
	case !bytes.Equal(old.JSON(), p.JSON()):
		return Change[*Package]{Op: Updated, Old: old, New: p}, true
	}
	return Change[*Package]{}, false
}
