package gamedata

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/gamedata-go/gamedata/internal/clock"
	"github.com/gamedata-go/gamedata/internal/pace"
)

// Op is the kind of a Change.
type Op int

const (
	// Added is a record seen for the first time, or again after it was
	// Removed.
	Added Op = iota + 1
	// Updated is a record whose content changed.
	Updated
	// Removed is a record that is gone: a package that answers 404, an
	// entry no longer in the directory.
	Removed
)

// String returns "added", "updated" or "removed".
func (o Op) String() string {
	switch o {
	case Added:
		return "added"
	case Updated:
		return "updated"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Change is a change that Watch saw. Old is the zero T for Added, New the
// zero T for Removed.
type Change[T any] struct {
	Op       Op
	Old, New T
}

// pollConfig is the call options of a poll: the watch's, but for its use
// of the cache, which wins over theirs: a full read skips the cache; any
// other poll sends a conditional request whatever the entry's freshness.
func pollConfig(cfg callConfig, full bool) callConfig {
	cfg.mode = CacheRevalidate
	if full {
		cfg.mode = CacheSkip
	}
	return cfg
}

// failed notes, to p, a failed poll whose error is err, a *PageError or an
// *ItemError that locates it. A Retry-After that the client did not wait
// out (it was beyond the backoff maximum, or the retries ran out) delays
// the next poll, up to the pacer's bound, and the error returned says so
// with a *WatchDelayError inside the one that locates it; any other err is
// returned as it is.
func failed(p *pace.Pacer, err error) error {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter <= 0 {
		return err
	}
	wait := p.Delay(apiErr.RetryAfter)
	delayed := func(err error) error {
		return &WatchDelayError{RetryAfter: apiErr.RetryAfter, Wait: wait, Err: err}
	}
	switch e := err.(type) {
	case *PageError:
		return &PageError{Page: e.Page, Err: delayed(e.Err)}
	case *ItemError:
		return &ItemError{Index: e.Index, Err: delayed(e.Err)}
	}
	return delayed(err)
}

// pollLoop is the loop of every watch: it polls the n targets of the
// watch in turn (the packages of Packages.Watch, the one directory of
// Dashboard.Watch), each once per interval every, the polls spread over
// the interval with jitter rather than sent in a burst, and yields what
// each poll reports: its changes, or its error, after which the watch
// goes on. poll(ctx, i, full) polls target i, in full when full (see
// pace.Guard), and returns the changes since its last poll; an error
// it returns locates the target (a *PageError or an *ItemError). The loop
// ends, with nothing yielded, when ctx ends or yield returns false.
func pollLoop[C any](ctx context.Context, clk clock.Clock, every time.Duration, n int, jitter float64, poll func(ctx context.Context, i int, full bool) (iter.Seq[C], error), yield func(C, error) bool) {
	var zero C
	pacer := pace.New(clk, every, n, jitter)
	guards := make([]pace.Guard, n)
	for {
		for i := range guards {
			if pacer.Wait(ctx) != nil {
				return
			}
			full := guards[i].Due(clk.Now())
			changes, err := poll(ctx, i, full)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				if !yield(zero, failed(pacer, err)) {
					return
				}
				continue
			}
			changed := false
			for ch := range changes {
				changed = true
				if !yield(ch, nil) {
					return
				}
			}
			guards[i].Polled(clk.Now(), full, changed)
		}
	}
}

// checkWatch refuses a watch before it starts: a client not made by
// NewClient, a nil context, an interval not above 0, a bad call option. It
// returns the client of s and the options resolved.
func checkWatch(ctx context.Context, s *service, every time.Duration, opts []CallOption) (*Client, callConfig, error) {
	c, err := s.ready()
	switch {
	case err != nil:
		return nil, callConfig{}, err
	case ctx == nil:
		return nil, callConfig{}, invalidArgument("Watch: nil context")
	case every <= 0:
		return nil, callConfig{}, invalidArgument("Watch: interval %s, want more than 0", every)
	}
	cfg, err := resolveOptions(ctx, opts)
	return c, cfg, err
}
