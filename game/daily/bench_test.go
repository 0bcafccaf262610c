package daily_test

import (
	"math/rand/v2"
	"sync"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/pool"
)

// assisted returns the inputs of a daily game of steps steps played by the
// autopilot, helped: the autopilot alone loses its last ship within 13
// minutes on every seed tried (400), so before a ship is lost the game is
// rewound (60 steps, then twice as far) and played again with half a
// second of random keys first, four tries a ship at most, and always
// before the last. A tool-assisted run, as a player could make one: it
// plays the later, busier waves no unassisted autopilot reaches. The
// world has no copy, so a rewind plays the game again from its start.
func assisted(tb testing.TB, d daily.Day, steps int) []game.Input {
	cfg := daily.Config(d, nil)
	cfg.Strategy = pool.Dense // the fastest; it changes nothing of the game
	rebuild := func(ins []game.Input) *game.World {
		w, err := game.New(cfg)
		if err != nil {
			tb.Fatal(err)
		}
		for _, in := range ins {
			w.Step(in)
		}
		return w
	}
	rng := rand.New(rand.NewPCG(uint64(d), 20))
	w := rebuild(nil)
	ins := make([]game.Input, 0, steps)
	aps := []game.Autopilot{{}} // the autopilot before each step
	var ap game.Autopilot
	random, back, deaths, tries := 0, 0, 0, 0
	for len(ins) < steps {
		in := ap.Input(w)
		if random > 0 {
			random--
			k := rng.Uint32()
			in = game.Input{Left: k&1 != 0, Right: k&2 != 0, Thrust: k&4 != 0, Fire: k&8 != 0}
		}
		w.Step(in)
		ins, aps = append(ins, in), append(aps, ap)
		if lost := w.Player(0).Deaths > deaths; lost && tries < 4 || w.Phase() == game.GameOver {
			tries++
			back = min(2*back+60, 1200)
			n := max(len(ins)-back, 0)
			ins, aps, ap = ins[:n], aps[:n+1], aps[n]
			w, random = rebuild(ins), game.TPS/2
			continue
		}
		if w.Player(0).Deaths > deaths {
			deaths, tries = w.Player(0).Deaths, 0
		}
		if len(ins)%(10*game.TPS) == 0 {
			back = 0
		}
	}
	return ins
}

// twenty is the 20-minute daily game BenchmarkVerify proves, made once a
// run: it takes some seconds.
var twenty struct {
	once sync.Once
	data []byte
}

// BenchmarkVerify proves daily games as a server does when one is posted:
// "autopilot" is the autopilot's game of the day, alone, to its end (about
// 7 minutes), "20min" a 20-minute game of the assisted autopilot. ns/op is
// one proof: its decoding, its checks and its re-play, on one core.
func BenchmarkVerify(b *testing.B) {
	ap := game.Autopilot{}
	alone, _ := play(b, daily.Config(day, nil), "autopilot", daily.MaxSteps, ap.Input)
	for _, bc := range []struct {
		name string
		data func(testing.TB) []byte
	}{
		{"autopilot", func(testing.TB) []byte { return alone }},
		{"20min", func(tb testing.TB) []byte {
			twenty.once.Do(func() {
				twenty.data = rerecord(tb, daily.Config(day, nil), "assisted", assisted(tb, day, 20*60*game.TPS))
			})
			return twenty.data
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := bc.data(b)
			var p daily.Proof
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if p, err = daily.Verify(b.Context(), data, noon, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Steps)/game.TPS/60, "game-min")
			b.ReportMetric(float64(p.Wave), "wave")
			b.ReportMetric(float64(len(data)), "file-bytes")
			b.ReportMetric(float64(p.Steps)*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
