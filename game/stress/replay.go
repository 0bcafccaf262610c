package stress

import (
	"slices"
	"time"

	"poolroids/pool"
)

// ops is what one pool did during one step of a run: its successful
// acquires and releases, and its live items after the step.
type ops struct{ acquires, releases, live int32 }

// replayed is what a replay of one pool measured over the measured steps.
type replayed struct {
	acquires, releases   uint64
	acquireNs, releaseNs float64 // totals, clock cost subtracted
	iterateNs            float64 // total of one All loop per step
	acquireProbes        uint64
	releaseProbes        uint64
	visited              uint64 // items the All loops yielded: the occupancy replayed
}

// replay times the pool operations of a run without the game around them:
// it replays ops, step by step, against a bare pool of strategy s holding
// T, with the run's capacity. Each step releases its count of the oldest
// items (bullets and debris expire roughly in the order they were spawned),
// then acquires its count, then iterates the pool once, as the game's
// passes do; the releases, the acquires and the loop are each timed as one
// batch, and clock, the cost of timing an empty batch, is subtracted from
// every batch. Steps before from are replayed untimed, so the measured
// steps start from the run's occupancy.
func replay[T any](s pool.Strategy, capacity int, steps []ops, from int, clock float64) (replayed, error) {
	var out replayed
	p, err := pool.New[T](s, capacity)
	if err != nil {
		return out, err
	}
	// live holds the live handles, oldest first, as a ring.
	live := make([]pool.Handle, capacity)
	head, n := 0, 0
	for i, o := range steps {
		timed := i >= from
		rel := min(int(o.releases), n)
		acq := min(int(o.acquires), capacity-(n-rel))
		if timed {
			out.releases += uint64(rel)
			out.acquires += uint64(acq)
		}

		before := p.Stats().Probes
		t := time.Now()
		for range rel {
			p.Release(live[head])
			head++
			if head == capacity {
				head = 0
			}
		}
		d := time.Since(t)
		n -= rel
		if timed && rel > 0 {
			out.releaseNs += float64(d) - clock
			out.releaseProbes += p.Stats().Probes - before
		}

		before = p.Stats().Probes
		tail := (head + n) % capacity
		t = time.Now()
		for range acq {
			h, _, _ := p.Acquire()
			live[tail] = h
			tail++
			if tail == capacity {
				tail = 0
			}
		}
		d = time.Since(t)
		n += acq
		if timed && acq > 0 {
			out.acquireNs += float64(d) - clock
			out.acquireProbes += p.Stats().Probes - before
		}

		var visited uint64
		t = time.Now()
		for range p.All() {
			visited++
		}
		d = time.Since(t)
		if timed {
			out.iterateNs += float64(d) - clock
			out.visited += visited
		}
	}
	return out, nil
}

// clockCost returns what timing an empty batch costs, in ns: the median of
// many back-to-back clock reads.
func clockCost() float64 {
	const n = 4096
	d := make([]int64, n)
	for i := range d {
		t := time.Now()
		d[i] = int64(time.Since(t))
	}
	slices.Sort(d)
	return float64(d[n/2])
}
