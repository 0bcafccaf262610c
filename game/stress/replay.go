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

// replayPasses is how many times [replay] plays the steps. A batch takes
// microseconds, and on a busy machine one of them now and then waits for
// the CPU far longer than it works; the least of a few passes drops those
// waits without dropping what a strategy really costs, which is the same
// in every pass.
const replayPasses = 3

// replay times the pool operations of a run without the game around them:
// it replays ops, step by step, against a bare pool of strategy s holding
// T, with the run's capacity. Each step releases its count of the oldest
// items (bullets and debris expire roughly in the order they were spawned),
// then acquires its count, then iterates the pool once, as the game's
// passes do; the releases, the acquires and the loop are each timed as one
// batch, and clock, the cost of timing an empty batch, is subtracted from
// every batch. Steps before from are replayed untimed, so the measured
// steps start from the run's occupancy. The whole replay is played
// [replayPasses] times, each on a new pool, and each batch counts with the
// least time it took in any pass.
func replay[T any](s pool.Strategy, capacity int, steps []ops, from int, clock float64) (replayed, error) {
	var out replayed
	n := len(steps) - from
	best := make([]float64, 3*n) // per measured step: release, acquire, loop
	for pass := range replayPasses {
		r, err := replayOnce[T](s, capacity, steps, from, clock, best, pass == 0)
		if err != nil {
			return out, err
		}
		out = r
	}
	out.releaseNs, out.acquireNs, out.iterateNs = 0, 0, 0
	for i := 0; i < len(best); i += 3 {
		out.releaseNs += best[i]
		out.acquireNs += best[i+1]
		out.iterateNs += best[i+2]
	}
	return out, nil
}

// replayOnce is one pass of replay. It keeps in best the least time of
// every timed batch (the first pass sets it) and returns the counts.
func replayOnce[T any](s pool.Strategy, capacity int, steps []ops, from int, clock float64, best []float64, first bool) (replayed, error) {
	var out replayed
	p, err := pool.New[T](s, capacity)
	if err != nil {
		return out, err
	}
	keep := func(k int, d time.Duration) {
		v := max(float64(d)-clock, 0)
		if first || v < best[k] {
			best[k] = v
		}
	}
	// live holds the live handles, oldest first, as a ring.
	live := make([]pool.Handle, capacity)
	head, n := 0, 0
	for i, o := range steps {
		timed := i >= from
		k := 3 * (i - from)
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
		if timed {
			if rel > 0 {
				keep(k, d)
			}
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
		if timed {
			if acq > 0 {
				keep(k+1, d)
			}
			out.acquireProbes += p.Stats().Probes - before
		}

		var visited uint64
		t = time.Now()
		for range p.All() {
			visited++
		}
		d = time.Since(t)
		if timed {
			keep(k+2, d)
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
