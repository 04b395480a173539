package gamedata

import (
	"context"
	"iter"
	"sync"

	"github.com/gamedata-go/gamedata/internal/walk"
)

// GetMany reads many packages with up to concurrency requests at a time,
// every one waiting on the client's rate limiter, and yields exactly one
// pair for each ref, in the order of refs. A package that cannot be read
// is yielded as a nil package and an *ItemError, and the walk goes on;
// when ctx ends, every package not yet read comes as an *ItemError
// wrapping ctx.Err(), and every one read before is still yielded.
// Breaking out of the loop cancels the requests in flight and returns once
// they have stopped. The call options apply to every request; a
// WithResponseInto among them receives each item's Response before the
// item is yielded.
func (s *PackagesService) GetMany(ctx context.Context, refs []PackageRef, concurrency int, opts ...CallOption) iter.Seq2[*Package, error] {
	return fanOut(ctx, (*service)(s), refs, concurrency, opts, func(ctx context.Context, c *Client, cfg callConfig, r PackageRef) (*Package, error) {
		return getPackage(ctx, c, cfg, r.Kind, r.Ident)
	})
}

// GetMany reads many dedicated servers with up to concurrency requests at
// a time, every one waiting on the client's rate limiter, and yields
// exactly one pair for each id, in the order of ids, as
// PackagesService.GetMany does for packages.
func (s *ServersService) GetMany(ctx context.Context, ids []string, concurrency int, opts ...CallOption) iter.Seq2[*Server, error] {
	return fanOut(ctx, (*service)(s), ids, concurrency, opts, func(ctx context.Context, c *Client, cfg callConfig, id string) (*Server, error) {
		return getServer(ctx, c, cfg, id)
	})
}

// checkFanOut refuses a fan-out before it starts: a client not made by
// NewClient, a nil context, a concurrency below 1, a bad call option. It
// returns the client and the options resolved.
func checkFanOut(ctx context.Context, s *service, concurrency int, opts []CallOption) (*Client, callConfig, error) {
	c, cfg, err := s.resolve(ctx, opts)
	if err == nil && concurrency < 1 {
		err = invalidArgument("concurrency %d, want 1 or more", concurrency)
	}
	return c, cfg, err
}

// fanOut runs get, a call of service s with the options opts, over inputs with bounded
// concurrency and yields one result for every input, in input order; a
// bad argument, or a service of a Client that NewClient did not make,
// yields one error instead, before any request. When ctx ends, the items not yet
// read still come, each as an error wrapping ctx.Err() (get fails at once
// on an ended context), and the results already read are yielded, not
// dropped. Workers run at most fanOutWindow(concurrency) items ahead of the
// caller, so a slow caller holds a bounded number of results, yet one item
// waiting out a Retry-After does not idle the other workers for long.
// Breaking out of the loop stops all work and returns once the workers are
// gone.
func fanOut[In, Out any](ctx context.Context, s *service, inputs []In, concurrency int, opts []CallOption, get func(context.Context, *Client, callConfig, In) (Out, error)) iter.Seq2[Out, error] {
	return func(yield func(Out, error) bool) {
		var zero Out
		c, cfg, err := checkFanOut(ctx, s, concurrency, opts)
		into := cfg.into
		if err != nil {
			yield(zero, err)
			return
		}
		if len(inputs) == 0 {
			return
		}
		type result struct {
			out      Out
			resp     Response
			err      error
			panicked *walk.Panic // carried to the caller's goroutine
		}
		ctx, cancel := context.WithCancel(ctx)
		// Item i's result waits in slot i % len(slots). The window keeps
		// the workers fewer than len(slots) items ahead of the caller, so
		// a slot is empty again before it is reused, no worker ever blocks
		// on one, and the memory is the window's, not the input's.
		slots := make([]chan result, min(fanOutWindow(concurrency), len(inputs)))
		for i := range slots {
			slots[i] = make(chan result, 1)
		}
		window := make(chan struct{}, len(slots))
		indexes := make(chan int)
		stop := make(chan struct{}) // closed when the caller breaks out
		var wg sync.WaitGroup
		defer func() {
			close(stop)
			cancel()
			wg.Wait()
		}()

		wg.Go(func() { feed(len(inputs), window, indexes, stop) })
		for range min(concurrency, len(inputs)) {
			wg.Go(func() {
				for i := range indexes {
					// Each item fills its own Response, handed on when
					// the item is yielded.
					var r result
					itemCfg := cfg
					itemCfg.into = &r.resp
					r.panicked = walk.Catch(func() { r.out, r.err = get(ctx, c, itemCfg, inputs[i]) })
					slots[i%len(slots)] <- r
				}
			})
		}

		for i := range inputs {
			r := <-slots[i%len(slots)]
			<-window
			if r.panicked != nil {
				panic(&PanicError{Value: r.panicked.Value, Stack: r.panicked.Stack})
			}
			if into != nil {
				*into = r.resp
			}
			if r.err != nil {
				r.out, r.err = zero, &ItemError{Index: i, Err: r.err}
			}
			if !yield(r.out, r.err) {
				return
			}
		}
	}
}

// feed sends each index below n to indexes once window has room for it,
// until stop is closed, and then closes indexes.
func feed(n int, window chan<- struct{}, indexes chan<- int, stop <-chan struct{}) {
	defer close(indexes)
	for i := range n {
		select {
		case window <- struct{}{}:
		case <-stop:
			return
		}
		select {
		case indexes <- i:
		case <-stop:
			return
		}
	}
}

// fanOutWindow is how far ahead of the caller a fan-out may run: far
// enough that the other workers keep busy for a few seconds while the
// item the caller waits for is retried.
func fanOutWindow(concurrency int) int { return max(16*concurrency, 128) }
