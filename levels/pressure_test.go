package levels_test

import (
	"testing"

	"poolroids/game"
	"poolroids/levels"
)

// TestShippedPressure plays the first and the last shipped level with the
// game's max-pressure autopilots for a minute of game time. Holding fire,
// a ship is refused its shots beyond its four in flight on every level.
// The first level leaves both pools mostly empty; the last runs the debris
// pool full, and eight ships firing flat out in an arena run the bullet
// pool full as well, so the pools are the bottleneck there, as the set
// intends.
func TestShippedPressure(t *testing.T) {
	d := levels.Default()
	last := len(d.Levels) - 1
	cases := []struct {
		name          string
		level, ships  int
		bullets, full bool // the pool runs full, with misses
	}{
		{"first level", 0, 1, false, false},
		{"last level", last, 1, false, true},
		{"last level, arena of 8", last, 8, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := *d
			s.Levels = []levels.Level{d.Levels[c.level]} // every wave is this level
			w, err := game.New(game.Config{Levels: &s, Seed: 1, Ships: c.ships})
			if err != nil {
				t.Fatal(err)
			}
			var aps [game.MaxShips]game.Autopilot
			for i := range aps {
				aps[i] = game.Autopilot{Pressure: true, Slot: i}
			}
			var in game.Inputs
			for range 60 * game.TPS {
				for i := range c.ships {
					if p := w.Player(i).Phase; p == game.GameOver || p == game.Absent {
						if c.ships == 1 {
							w.Restart()
						} else if err := w.Join(i); err != nil {
							t.Fatal(err)
						}
					}
					in[i] = aps[i].Input(w)
				}
				w.StepAll(&in)
			}
			for _, st := range []struct {
				pool           string
				high, capacity int
				misses         uint64
				full           bool
			}{
				{"bullets", w.Bullets().Stats().HighWater, s.Bullets, w.Bullets().Stats().Misses, c.bullets},
				{"debris", w.Debris().Stats().HighWater, s.Debris, w.Debris().Stats().Misses, c.full},
			} {
				if st.full && (st.high != st.capacity || st.misses == 0) {
					t.Errorf("%s pool: high water %d of %d, %d misses; want it full, with misses", st.pool, st.high, st.capacity, st.misses)
				}
				if !st.full && st.high > st.capacity/2 {
					t.Errorf("%s pool: high water %d of %d, want at most half", st.pool, st.high, st.capacity)
				}
			}
			if p := w.Player(0); p.Misses == 0 {
				t.Errorf("slot 0: no shot refused of %d fired; want those beyond its %d in flight refused", p.Shots, s.Shots)
			}
		})
	}
}
