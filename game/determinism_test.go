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
