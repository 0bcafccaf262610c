package game

import (
	"testing"

	"poolroids/pool"
)

// scriptStep is one step of a recorded game: the input, and whether the
// player restarted before it.
type scriptStep struct {
	in      Input
	restart bool
}

const scriptSteps = 1200

// record plays the reference game: the autopilot under pressure, with
// stretches of scripted thrust and hyperspace jumps mixed in, restarting
// after a game over. It returns the inputs and the checksum after every step.
func record(t *testing.T, cfg Config) ([]scriptStep, []uint64, *World) {
	t.Helper()
	w := newWorld(t, cfg)
	ap := Autopilot{Pressure: true}
	script := make([]scriptStep, scriptSteps)
	sums := make([]uint64, scriptSteps)
	for i := range script {
		if w.Phase() == GameOver {
			script[i].restart = true
			w.Restart()
		}
		in := ap.Input(w)
		switch {
		case i%200 < 25:
			in.Thrust, in.Right = true, true
		case i%170 == 0:
			in.Hyperspace = true
		}
		script[i].in = in
		w.Step(in)
		sums[i] = w.Checksum()
	}
	return script, sums, w
}

// replay plays script on a world built from cfg, calling between before
// each step, and reports the first step whose checksum differs.
func replay(t *testing.T, cfg Config, script []scriptStep, sums []uint64, between func(w *World, step int)) {
	t.Helper()
	w := newWorld(t, cfg)
	for i, x := range script {
		between(w, i)
		if x.restart {
			w.Restart()
		}
		w.Step(x.in)
		if got := w.Checksum(); got != sums[i] {
			t.Fatalf("step %d: checksum %016x, reference %016x", i+1, got, sums[i])
		}
	}
}

func TestDeterminism(t *testing.T) {
	cfg := Config{Levels: busySet(), Seed: 42, Strategy: pool.FreeList}
	script, sums, ref := record(t, cfg)

	// The reference run must really have stressed what it claims to test.
	if ref.Debris().Stats().Misses == 0 || ref.Bullets().Stats().HighWater != ref.Bullets().Cap() {
		t.Fatalf("reference run too calm: bullets %+v debris %+v", ref.Bullets().Stats(), ref.Debris().Stats())
	}
	if ref.rockSerial < 100 {
		t.Fatalf("reference run broke only %d rocks", ref.rockSerial)
	}

	strategies := pool.Strategies()
	for _, s := range strategies {
		t.Run(string(s), func(t *testing.T) {
			c := cfg
			c.Strategy = s
			replay(t, c, script, sums, func(*World, int) {})
		})
	}
	t.Run("switch every 7 steps", func(t *testing.T) {
		replay(t, cfg, script, sums, func(w *World, i int) {
			if i%7 == 0 {
				if err := w.SetStrategy(strategies[(i/7)%len(strategies)]); err != nil {
					t.Fatal(err)
				}
			}
		})
	})
	t.Run("switch each pool on its own", func(t *testing.T) {
		replay(t, cfg, script, sums, func(w *World, i int) {
			if i%5 == 0 {
				if err := w.Bullets().SetStrategy(strategies[(i/5)%len(strategies)]); err != nil {
					t.Fatal(err)
				}
			}
			if i%11 == 0 {
				if err := w.Debris().SetStrategy(strategies[(i/11+3)%len(strategies)]); err != nil {
					t.Fatal(err)
				}
			}
		})
	})
}

func TestSetStrategyUnknown(t *testing.T) {
	w := newWorld(t, Config{Levels: busySet(), Seed: 1})
	sum := w.Checksum()
	if err := w.SetStrategy("bogus"); err == nil {
		t.Fatal("an unknown strategy was accepted")
	}
	if w.Bullets().Strategy() != pool.FreeList || w.Debris().Strategy() != pool.FreeList || w.Checksum() != sum {
		t.Error("a refused switch changed the world")
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"unknown strategy", Config{Levels: busySet(), Strategy: "bogus"}},
		{"negative bullets", Config{Levels: busySet(), Bullets: -1}},
		{"negative debris", Config{Levels: busySet(), Debris: -5}},
		{"no levels", Config{Levels: testSet(testLevel(), 0)}},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
}

// arenaStep is one step of a recorded multi-ship game: who joined and left
// before it, and every slot's input.
type arenaStep struct {
	join, leave []int
	in          Inputs
}

// recordArena plays a game of cfg.Ships slots: autopilots under pressure
// join one after another, some leave and come back, a game over rejoins.
// It returns the steps and the checksum after each.
func recordArena(t *testing.T, cfg Config) ([]arenaStep, []uint64) {
	t.Helper()
	w := newWorld(t, cfg)
	aps := make([]Autopilot, cfg.Ships)
	for i := range aps {
		aps[i] = Autopilot{Pressure: i%2 == 0, Slot: i}
	}
	script := make([]arenaStep, scriptSteps)
	sums := make([]uint64, scriptSteps)
	for i := range script {
		x := &script[i]
		for s := range cfg.Ships {
			p := w.Player(s)
			switch {
			case i == 40*s || (p.Phase == GameOver && i%50 == 0) || (p.Phase == Absent && i == 700+s):
				x.join = append(x.join, s)
			case p.Phase != Absent && i == 400+30*s && s%3 == 1:
				x.leave = append(x.leave, s)
			}
		}
		for _, s := range x.join {
			if err := w.Join(s); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		for _, s := range x.leave {
			w.Leave(s)
		}
		for s := range cfg.Ships {
			x.in[s] = aps[s].Input(w)
			if i%150 < 20 {
				x.in[s].Thrust = true
			}
		}
		w.StepAll(&x.in)
		sums[i] = w.Checksum()
	}
	return script, sums
}

// replayArena replays script on a world built from cfg, calling between
// before each step, and reports the first step whose checksum differs.
func replayArena(t *testing.T, cfg Config, script []arenaStep, sums []uint64, between func(w *World, step int)) {
	t.Helper()
	w := newWorld(t, cfg)
	for i := range script {
		x := &script[i]
		between(w, i)
		for _, s := range x.join {
			if err := w.Join(s); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		for _, s := range x.leave {
			w.Leave(s)
		}
		w.StepAll(&x.in)
		if got := w.Checksum(); got != sums[i] {
			t.Fatalf("step %d: checksum %016x, reference %016x", i+1, got, sums[i])
		}
	}
}

// TestArenaDeterminism is TestDeterminism for worlds of many ships, in
// both modes: joins and leaves are inputs like any other, and neither the
// strategy nor when it is switched changes the game.
func TestArenaDeterminism(t *testing.T) {
	for _, mode := range []Mode{Coop, PvP} {
		t.Run(mode.String(), func(t *testing.T) {
			cfg := Config{Levels: busySet(), Seed: 11, Strategy: pool.FreeList, Ships: 6, Mode: mode}
			script, sums := recordArena(t, cfg)
			strategies := pool.Strategies()
			for _, s := range strategies {
				t.Run(string(s), func(t *testing.T) {
					c := cfg
					c.Strategy = s
					replayArena(t, c, script, sums, func(*World, int) {})
				})
			}
			t.Run("switch each pool on its own", func(t *testing.T) {
				replayArena(t, cfg, script, sums, func(w *World, i int) {
					var b, d pool.Strategy
					if i%5 == 0 {
						b = strategies[(i/5)%len(strategies)]
					}
					if i%13 == 0 {
						d = strategies[(i/13+4)%len(strategies)]
					}
					if err := w.SetStrategies(b, d); err != nil {
						t.Fatal(err)
					}
				})
			})
		})
	}
}
