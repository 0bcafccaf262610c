package game

import (
	"time"

	"poolroids/pool"
)

// SampleEvery is how many steps apart the pools are sampled for a panel:
// four times a second.
const SampleEvery = TPS / 4

// PoolSample is a world's pools at one step, as whoever steps the world
// records them for the screens that show its figures.
type PoolSample struct {
	At       time.Time     // when it was taken
	Step     uint64        // the stepper's step count then: game time
	Pools    [2]pool.Stats // the bullets', the debris'
	StepTime time.Duration // the mean time of a step then
	// Restart is which pool's rates start afresh at this sample: its
	// strategy changed, or the world is another.
	Restart [2]bool
}

// PoolSamples keeps the last samples of a world's pools and counts them
// all: a reader takes those after the count it last saw, so that at any
// frame rate it misses none (the ring holds eight seconds of samples, a
// sparkline's six and more).
// The zero value is empty. It allocates nothing; it is not safe for
// concurrent use (its stepper's lock guards it).
type PoolSamples struct {
	ring [32]PoolSample
	n    uint64
}

// Add records the pools of w at the stepper's step count step, with the
// mean step time and the pools whose rates start afresh.
func (s *PoolSamples) Add(w *World, step uint64, stepTime time.Duration, restart [2]bool) {
	s.ring[s.n%uint64(len(s.ring))] = PoolSample{
		At: time.Now(), Step: step, StepTime: stepTime, Restart: restart,
		Pools: [2]pool.Stats{w.BulletStats(), w.Debris().Stats()},
	}
	s.n++
}

// N is how many samples were ever added.
func (s *PoolSamples) N() uint64 { return s.n }

// Since calls fn with the samples after the first n, oldest first: at
// most the ring's, the latest. It returns the count to give it next.
func (s *PoolSamples) Since(n uint64, fn func(PoolSample)) uint64 {
	size := uint64(len(s.ring))
	if s.n > size && n < s.n-size {
		n = s.n - size
	}
	for ; n < s.n; n++ {
		fn(s.ring[n%size])
	}
	return s.n
}
