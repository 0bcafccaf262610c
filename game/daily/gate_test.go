package daily

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
)

// A gate runs its slots' number at once, lets its queue wait, and turns
// the next away at once; a wait ends with its context, giving its place
// back.
func TestGate(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(1, 1)
		first, err := g.enter(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan func(), 1)
		go func() {
			release, err := g.enter(t.Context())
			if err != nil {
				t.Error(err)
			}
			got <- release
		}()
		synctest.Wait()
		if len(got) != 0 {
			t.Fatal("a second proof ran beside the first in a gate of one slot")
		}
		if _, err := g.enter(t.Context()); !errors.Is(err, ErrBusy) {
			t.Fatalf("a third with one waiting: %v, want ErrBusy", err)
		}
		first()
		second := <-got
		ctx, cancel := context.WithCancel(t.Context())
		waited := make(chan error, 1)
		go func() {
			_, err := g.enter(ctx)
			waited <- err
		}()
		synctest.Wait()
		cancel()
		if err := <-waited; !errors.Is(err, context.Canceled) {
			t.Fatalf("a wait cancelled: %v", err)
		}
		second()
		// Every place is given back: one runs again at once.
		release, err := g.enter(t.Context())
		if err != nil {
			t.Fatalf("after all left: %v", err)
		}
		release()
	})
}
