package game

import "testing"

// TestZeroAllocStep runs a busy world (pools full, rocks breaking, saucers)
// with every pooled strategy and asserts that a step, the autopilot, the
// checksum and the drawing helpers allocate nothing.
func TestZeroAllocStep(t *testing.T) {
	for _, s := range pooled() {
		t.Run(string(s), func(t *testing.T) {
			w := newWorld(t, Config{Levels: busySet(), Seed: 9, Strategy: s})
			ap := Autopilot{Pressure: true}
			for range 120 {
				w.Step(ap.Input(w))
			}
			pts := make([]Vec, 0, 64)
			allocs := testing.AllocsPerRun(300, func() {
				w.Step(ap.Input(w))
				_ = w.Checksum()
				pts = w.ShipPoints(pts[:0])
				for i := range w.Asteroids() {
					pts = w.Asteroids()[i].Points(pts[:0])
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per step", allocs)
			}
			if w.Bullets().Stats().HighWater != w.Bullets().Cap() {
				t.Errorf("world not busy: bullets %+v", w.Bullets().Stats())
			}
		})
	}
}

// TestExhaustion plays a level that asks far more of the pools than they
// hold: the game goes on, the misses are counted, nothing is allocated, and
// the debris capacity does not change the game itself.
func TestExhaustion(t *testing.T) {
	var first *World
	for _, s := range pooled() {
		t.Run(string(s), func(t *testing.T) {
			w := newWorld(t, Config{Levels: busySet(), Seed: 4, Strategy: s, Bullets: 2, Debris: 3})
			ap := Autopilot{Pressure: true}
			for range 600 {
				w.Step(ap.Input(w))
				if w.Bullets().Len() > 2 || w.Debris().Len() > 3 {
					t.Fatalf("pools over capacity: %d bullets, %d debris", w.Bullets().Len(), w.Debris().Len())
				}
			}
			allocs := testing.AllocsPerRun(200, func() { w.Step(ap.Input(w)) })
			if allocs != 0 {
				t.Errorf("%v allocations per step with exhausted pools", allocs)
			}
			b, d := w.Bullets().Stats(), w.Debris().Stats()
			if b.Misses == 0 || d.Misses == 0 {
				t.Errorf("no misses counted: bullets %+v debris %+v", b, d)
			}
			if w.Score() == 0 {
				t.Error("nothing scored with two bullets")
			}
			if first == nil {
				first = w
			} else if w.Checksum() != first.Checksum() {
				t.Error("exhausted pools play differently under another strategy")
			}
		})
	}

	// Debris is decoration: however little room it has, the rocks, the ship
	// and the score follow the same course.
	small := newWorld(t, Config{Levels: busySet(), Seed: 4, Debris: 1})
	big := newWorld(t, Config{Levels: busySet(), Seed: 4, Debris: 4000})
	var a1, a2 Autopilot
	for range 600 {
		small.Step(a1.Input(small))
		big.Step(a2.Input(big))
	}
	if small.Score() != big.Score() || small.rng != big.rng || len(small.asteroids) != len(big.asteroids) || small.ship != big.ship {
		t.Error("the debris capacity changed the game")
	}
}
