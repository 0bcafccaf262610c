package stress

import (
	"slices"
	"time"

	"poolroids/pool"
)

// ops is what one pool did during one step of the game: its successful
// acquires and releases, how many of the acquired items it released again
// within the step (transient), and its live items after the step.
type ops struct{ acquires, releases, transient, live int32 }

// poolLog is what one pool did at every step of the session's game, as
// the replay needs it. Every item the pool handed out has an id, its place
// in the order of acquisition; released lists, step after step, the ids of
// the items each step released (ends[i] is where step i's end), oldest
// first. The transient items of a step have the last ids it acquired.
type poolLog struct {
	steps    []ops
	released []int32
	ends     []int32
	items    int // ids given out
	// acquireFirst says the game acquires before it releases within a
	// step: it fires before it moves the bullets, and breaks rocks into
	// debris after it ages the debris.
	acquireFirst bool
}

// recorder builds a poolLog from the live items after every step. Items
// are told apart by the serial the game gives them in spawn order, the
// same whatever the strategy, so the log is the game's, not a strategy's.
type recorder struct {
	log   poolLog
	ids   map[uint64]tagged // live items by serial
	last  pool.Stats
	fresh []uint64
	gone  []int32
}

// tagged is a live item's id and the last step that saw it.
type tagged struct{ id, seen int32 }

func newRecorder(steps int) *recorder {
	return &recorder{
		log: poolLog{steps: make([]ops, 0, steps), ends: make([]int32, 0, steps)},
		ids: map[uint64]tagged{},
	}
}

// step logs step i from the pool's stats and the serials of its live
// items. cleared says the game was restarted before the step, which
// released every item and starts the serials again.
func (r *recorder) step(i int, s pool.Stats, cleared bool, live func(yield func(uint64) bool)) {
	o := ops{
		acquires: int32(s.Acquires - r.last.Acquires),
		releases: int32(s.Releases - r.last.Releases),
		live:     int32(s.Active),
	}
	r.last = s
	r.gone, r.fresh = r.gone[:0], r.fresh[:0]
	if cleared {
		for _, t := range r.ids {
			r.gone = append(r.gone, t.id)
		}
		clear(r.ids)
	}
	for serial := range live {
		if t, ok := r.ids[serial]; ok {
			t.seen = int32(i)
			r.ids[serial] = t
		} else {
			r.fresh = append(r.fresh, serial)
		}
	}
	for serial, t := range r.ids {
		if t.seen != int32(i) {
			r.gone = append(r.gone, t.id)
			delete(r.ids, serial)
		}
	}
	slices.Sort(r.gone)
	slices.Sort(r.fresh)
	for _, serial := range r.fresh {
		r.ids[serial] = tagged{id: int32(r.log.items), seen: int32(i)}
		r.log.items++
	}
	o.transient = max(o.acquires-int32(len(r.fresh)), 0)
	r.log.items += int(o.transient)
	r.log.released = append(r.log.released, r.gone...)
	r.log.ends = append(r.log.ends, int32(len(r.log.released)))
	r.log.steps = append(r.log.steps, o)
}

// record plays the session's game once, untimed, and logs what each pool
// did at every step: the work every replay repeats. All runs play this
// same game, whatever their strategy.
func record(cfg Config) (bullets, debris poolLog, err error) {
	p, err := newPlayer(cfg, cfg.Strategies[0])
	if err != nil {
		return bullets, debris, err
	}
	w := p.w
	n := cfg.Warmup + cfg.Steps
	rb, rd := newRecorder(n), newRecorder(n)
	for i := range n {
		in, err := p.input()
		if err != nil {
			return bullets, debris, err
		}
		w.StepAll(in)
		cleared := i > 0 && w.Steps() == 1 // the input restarted the game, clearing its pools
		rb.step(i, w.Bullets().Stats(), cleared, func(yield func(uint64) bool) {
			for _, b := range w.Bullets().All() {
				if !yield(b.Serial) {
					return
				}
			}
		})
		rd.step(i, w.Debris().Stats(), cleared, func(yield func(uint64) bool) {
			for _, d := range w.Debris().All() {
				if !yield(d.Serial) {
					return
				}
			}
		})
	}
	rb.log.acquireFirst = true
	return rb.log, rd.log, nil
}

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

// replay times the pool operations of the game without the game around
// them: it replays log, step by step, against a bare pool of strategy s
// holding T, with the game's capacity. Each step releases the items the
// game released and acquires as many as it acquired, in the game's order,
// releases the transient ones, then iterates the pool once, as the game's
// passes do; the releases, the acquires and the loop are each timed as
// one batch, and
// clock, the cost of timing an empty batch, is subtracted from every
// batch. Steps before from are replayed untimed, so the measured steps
// start from the game's occupancy. The whole replay is played
// [replayPasses] times, each on a new pool, and each batch counts with the
// least time it took in any pass.
func replay[T any](s pool.Strategy, capacity int, log *poolLog, from int, clock float64) (replayed, error) {
	var out replayed
	n := len(log.steps) - from
	best := make([]float64, 3*n) // per measured step: releases, acquires, loop
	for pass := range replayPasses {
		r, err := replayOnce[T](s, capacity, log, from, clock, best, pass == 0)
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
func replayOnce[T any](s pool.Strategy, capacity int, log *poolLog, from int, clock float64, best []float64, first bool) (replayed, error) {
	var out replayed
	p, err := pool.New[T](s, capacity)
	if err != nil {
		return out, err
	}
	keep := func(k int, ns float64) {
		v := max(ns, 0)
		if first || v < best[k] {
			best[k] = v
		}
	}
	handles := make([]pool.Handle, log.items)
	next, start := 0, 0
	for i, o := range log.steps {
		timed := i >= from
		k := 3 * (i - from)
		gone := log.released[start:log.ends[i]]
		start = int(log.ends[i])

		// A step releases what the game released and acquires as much
		// as it acquired, in the game's order, then releases the
		// transient items; the releases are timed as one batch.
		var dr, da time.Duration
		var rel, acq pool.Stats // probes and counts the batches added
		release := func(hs []pool.Handle, ids []int32) {
			before := p.Stats()
			t := time.Now()
			for _, id := range ids {
				p.Release(handles[id])
			}
			for _, h := range hs {
				p.Release(h)
			}
			dr += time.Since(t)
			after := p.Stats()
			rel.Releases += after.Releases - before.Releases
			rel.Probes += after.Probes - before.Probes
		}
		acquire := func() {
			before := p.Stats()
			t := time.Now()
			for range o.acquires {
				handles[next], _, _ = p.Acquire()
				next++
			}
			da = time.Since(t)
			after := p.Stats()
			acq.Acquires = after.Acquires - before.Acquires
			acq.Probes = after.Probes - before.Probes
		}
		if log.acquireFirst {
			acquire()
			release(handles[next-int(o.transient):next], gone)
		} else {
			release(nil, gone)
			acquire()
			if o.transient > 0 {
				release(handles[next-int(o.transient):next], nil)
				dr -= time.Duration(clock) // two timed batches, one counted
			}
		}

		var visited uint64
		t := time.Now()
		for range p.All() {
			visited++
		}
		di := time.Since(t)
		if !timed {
			continue
		}
		out.releases += rel.Releases
		out.acquires += acq.Acquires
		out.releaseProbes += rel.Probes
		out.acquireProbes += acq.Probes
		out.visited += visited
		if len(gone) > 0 || o.transient > 0 {
			keep(k, float64(dr)-clock)
		}
		if o.acquires > 0 {
			keep(k+1, float64(da)-clock)
		}
		keep(k+2, float64(di)-clock)
	}
	return out, nil
}

// occupancy returns the mean fill of the pool over the steps from on, in
// percent of capacity.
func (l *poolLog) occupancy(from, capacity int) float64 {
	var live int64
	for _, o := range l.steps[from:] {
		live += int64(o.live)
	}
	return 100 * float64(live) / float64(len(l.steps)-from) / float64(capacity)
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
