package daily_test

import (
	"bytes"
	"testing"
	"time"

	"poolroids/game"
	"poolroids/game/daily"
	"poolroids/game/replay"
	"poolroids/game/replay/replaytest"
	"poolroids/levels"
)

// day is the day the tests play, noon its middle.
var (
	day  = mustDay("2025-06-14")
	noon = day.Start().Add(12 * time.Hour)
)

func mustDay(s string) daily.Day {
	d, err := daily.ParseDay(s)
	if err != nil {
		panic(err)
	}
	return d
}

// hand plays as a person's hands might: a key combination held for 100
// to 700 ms, then another, chosen by a xorshift sequence of its seed.
type hand struct {
	x    uint64
	in   game.Input
	hold int
}

func newHand(seed uint64) *hand { return &hand{x: seed | 1} }

func (h *hand) next() uint64 {
	h.x ^= h.x << 13
	h.x ^= h.x >> 7
	h.x ^= h.x << 17
	return h.x
}

func (h *hand) input() game.Input {
	if h.hold == 0 {
		k := h.next()
		h.in = game.Input{Left: k&3 == 1, Right: k&3 == 2, Thrust: k&4 != 0, Fire: k&24 != 0, Hyperspace: k&0x3e0 == 0}
		h.hold = 6 + int(h.next()%36)
	}
	h.hold--
	return h.in
}

// play records cfg played by pilot for at most steps steps, to game over
// if it comes first, as player name; it returns the file and the world
// at its end.
func play(tb testing.TB, cfg game.Config, name string, steps int, pilot func(*game.World) game.Input) ([]byte, *game.World) {
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

// handGame is day d's game on set played by hand (seed) for at most steps.
func handGame(tb testing.TB, d daily.Day, set *levels.Set, name string, seed uint64, steps int) ([]byte, *game.World) {
	h := newHand(seed)
	return play(tb, daily.Config(d, set), name, steps, func(*game.World) game.Input { return h.input() })
}

// inputs returns the input of slot 0 at every step of data.
func inputs(tb testing.TB, data []byte) []game.Input {
	all := replaytest.Inputs(tb, data)
	ins := make([]game.Input, len(all))
	for i := range all {
		ins[i] = all[i][0]
	}
	return ins
}

// rerecord records ins played in a world of cfg, as name: a replay whose
// checksums are its own, whatever cfg.
func rerecord(tb testing.TB, cfg game.Config, name string, ins []game.Input) []byte {
	i := 0
	data, _ := play(tb, cfg, name, len(ins), func(*game.World) game.Input { i++; return ins[i-1] })
	return data
}
