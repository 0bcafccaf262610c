package game

import (
	"testing"

	"poolroids/pool"
)

// BenchmarkStep measures one step of a busy world — the autopilot under
// pressure deciding and the world advancing — with both pools running full
// (bullets at capacity, debris bursts overflowing), for every strategy in
// one run so the ratios are fair. A game over restarts inside the loop, as
// the stress mode does.
func BenchmarkStep(b *testing.B) {
	set := busySet()
	for i := range set.Levels {
		l := &set.Levels[i]
		l.DebrisPerBreak, l.DebrisLifeMin, l.DebrisLifeMax = 200, 60, 120
	}
	for _, s := range pool.Strategies() {
		b.Run(string(s), func(b *testing.B) {
			w := newWorld(b, Config{Levels: set, Seed: 1, Strategy: s})
			ap := Autopilot{Pressure: true}
			for range 300 {
				w.Step(ap.Input(w))
			}
			live := 0
			misses := w.Bullets().Stats().Misses + w.Debris().Stats().Misses
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if w.Phase() == GameOver {
					w.Restart()
				}
				w.Step(ap.Input(w))
				live += w.Bullets().Len() + w.Debris().Len()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(live)/float64(b.N), "live/step")
			misses = w.Bullets().Stats().Misses + w.Debris().Stats().Misses - misses
			b.ReportMetric(float64(misses)/float64(b.N), "misses/step")
		})
	}
}
