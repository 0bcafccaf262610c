package levels_test

import (
	"testing"

	"poolroids/game"
	"poolroids/levels"
)

// TestShippedPressure plays the first and the last shipped level with the
// game's max-pressure autopilot for a minute of game time: the first level
// leaves both pools mostly empty, the last runs both full, so the pools are
// the bottleneck there, as the set intends.
func TestShippedPressure(t *testing.T) {
	d := levels.Default()
	cases := []struct {
		level int
		full  bool
	}{
		{0, false},
		{len(d.Levels) - 1, true},
	}
	for _, c := range cases {
		l := d.Levels[c.level]
		t.Run(l.Name, func(t *testing.T) {
			s := *d
			s.Levels = []levels.Level{l} // every wave is this level
			w, err := game.New(game.Config{Levels: &s, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ap := &game.Autopilot{Pressure: true}
			for range 60 * game.TPS {
				if w.Phase() == game.GameOver {
					w.Restart()
				}
				w.Step(ap.Input(w))
			}
			for _, st := range []struct {
				pool           string
				high, capacity int
				misses         uint64
			}{
				{"bullets", w.Bullets().Stats().HighWater, s.Bullets, w.Bullets().Stats().Misses},
				{"debris", w.Debris().Stats().HighWater, s.Debris, w.Debris().Stats().Misses},
			} {
				if c.full && (st.high != st.capacity || st.misses == 0) {
					t.Errorf("%s pool: high water %d of %d, %d misses; want it full, with misses", st.pool, st.high, st.capacity, st.misses)
				}
				if !c.full && st.high > st.capacity/2 {
					t.Errorf("%s pool: high water %d of %d, want at most half", st.pool, st.high, st.capacity)
				}
			}
		})
	}
}
