// Package dailytest makes daily games for the tests of what proves, ranks
// and posts them: games played by a hand of random keys or by the
// autopilot helped by rewinds, a game's inputs played again on another
// configuration, and a hundred mutations of a game, each with the answers
// [daily.Verify] may give it.
package dailytest

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/levels"
	"poolroids/pool"
)

// Hand plays as a person's hands might: a key combination held for 100 to
// 700 ms, then another, chosen by a xorshift sequence of its seed.
type Hand struct {
	x    uint64
	in   game.Input
	hold int
}

// NewHand returns the hand of seed: the same seed plays the same keys.
func NewHand(seed uint64) *Hand { return &Hand{x: seed | 1} }

func (h *Hand) next() uint64 {
	h.x ^= h.x << 13
	h.x ^= h.x >> 7
	h.x ^= h.x << 17
	return h.x
}

// Input returns the keys held at the next step.
func (h *Hand) Input() game.Input {
	if h.hold == 0 {
		k := h.next()
		h.in = game.Input{Left: k&3 == 1, Right: k&3 == 2, Thrust: k&4 != 0, Fire: k&24 != 0, Hyperspace: k&0x3e0 == 0}
		h.hold = 6 + int(h.next()%36)
	}
	h.hold--
	return h.in
}

// Play records cfg played by pilot for at most steps steps, to game over
// if it comes first, as player name; it returns the file and the world
// at its end.
func Play(tb testing.TB, cfg game.Config, name string, steps int, pilot func(*game.World) game.Input) ([]byte, *game.World) {
	tb.Helper()
	rec, err := replay.NewRecorder(cfg, replay.Options{Players: []string{name}})
	if err != nil {
		tb.Fatal(err)
	}
	var in game.Inputs
	for range steps {
		if rec.World().Phase() == game.GameOver {
			break
		}
		in[0] = pilot(rec.World())
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		tb.Fatal(err)
	}
	return bytes.Clone(rec.Bytes()), rec.World()
}

// HandGame is day d's game on set (nil: the shipped levels) played by the
// hand of seed, as name, for at most steps.
func HandGame(tb testing.TB, d daily.Day, set *levels.Set, name string, seed uint64, steps int) ([]byte, *game.World) {
	h := NewHand(seed)
	return Play(tb, daily.Config(d, set), name, steps, func(*game.World) game.Input { return h.Input() })
}

// Inputs returns the input of slot 0 at every step of data.
func Inputs(tb testing.TB, data []byte) []game.Input {
	all := replaytest.Inputs(tb, data)
	ins := make([]game.Input, len(all))
	for i := range all {
		ins[i] = all[i][0]
	}
	return ins
}

// Rerecord records ins played in a world of cfg, as name: a replay whose
// checksums are its own, whatever cfg.
func Rerecord(tb testing.TB, cfg game.Config, name string, ins []game.Input) []byte {
	i := 0
	data, _ := Play(tb, cfg, name, len(ins), func(*game.World) game.Input { i++; return ins[i-1] })
	return data
}

// TinySet is a level set built in code, so that what is pinned with it
// does not move when the shipped levels are edited.
func TinySet() *levels.Set {
	return &levels.Set{Name: "tiny", Bullets: 8, Shots: 4, Debris: 64, Strategy: pool.FreeList, Levels: []levels.Level{{
		Name: "one", Asteroids: 2, Size: 3, SpeedMin: 20, SpeedMax: 40, FireCooldown: 10, BulletSpeed: 400,
		BulletLife: 50, BulletsPerShot: 1, DebrisPerBreak: 4, DebrisLifeMin: 10, DebrisLifeMax: 20,
	}}}
}

// Assisted returns the inputs of day d's game of steps steps played by
// the autopilot, helped: the autopilot alone loses its last ship within
// 13 minutes on every seed tried (400), so before a ship is lost the game
// is rewound (60 steps, then twice as far) and played again with half a
// second of random keys first, four tries a ship at most, and always
// before the last. A tool-assisted run, as a player could make one: it
// plays the later, busier waves no unassisted autopilot reaches. The
// world has no copy, so a rewind plays the game again from its start: a
// 20-minute game takes some seconds to make.
func Assisted(tb testing.TB, d daily.Day, steps int) []game.Input {
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
