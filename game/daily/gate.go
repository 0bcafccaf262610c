package daily

import (
	"context"
	"errors"
	"time"

	"poolroids/levels"
)

// ErrBusy is what [Gate.Verify] returns when as many proofs wait as the
// gate lets wait: the replay is not refused, only not proven now.
var ErrBusy = errors.New("daily: too many replays being proven; try again in a minute")

// Gate bounds the proofs a server runs at once: each re-plays a game at
// the speed of one core (BenchmarkVerify), so a server that proves every
// replay posted to it as it comes could be made to spend all its cores
// on them. A Gate runs at most its slots' number at once; more wait for
// a slot, in no set order, while no more than its queue wait, and the
// next is refused at once with ErrBusy. A Gate is safe for concurrent
// use; the zero Gate is not usable: make one with [NewGate].
type Gate struct {
	slots chan struct{} // a token held by each proof that runs
	queue chan struct{} // a token held by each proof that runs or waits
}

// NewGate returns a gate that runs slots proofs at once and lets queue
// more wait (slots at least 1, queue at least 0).
func NewGate(slots, queue int) *Gate {
	slots = max(slots, 1)
	return &Gate{slots: make(chan struct{}, slots), queue: make(chan struct{}, slots+max(queue, 0))}
}

// Verify is [Verify] within a slot of g: it waits for one until ctx is
// done (ctx's error is then returned as it is), or returns ErrBusy at
// once when the queue is full.
func (g *Gate) Verify(ctx context.Context, data []byte, now time.Time, set *levels.Set) (Proof, error) {
	release, err := g.enter(ctx)
	if err != nil {
		return Proof{}, err
	}
	defer release()
	return Verify(ctx, data, now, set)
}

// enter waits for a slot, and returns the function that gives it back.
func (g *Gate) enter(ctx context.Context) (release func(), err error) {
	select {
	case g.queue <- struct{}{}:
	default:
		return nil, ErrBusy
	}
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots; <-g.queue }, nil
	case <-ctx.Done():
		<-g.queue
		return nil, ctx.Err()
	}
}
