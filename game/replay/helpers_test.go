package replay_test

import (
	"context"
	"io"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/levels"
	"poolroids/pool"
)

// inputs is one step's input of every slot, as Recorder.Step takes it.
type inputs = game.Inputs

// autopilotGame records steps of the autopilot playing cfg, starting a new
// game whenever one is over, and switching the pools to the next strategy
// every switchEvery steps when that is not 0. It returns the file and the
// world's checksum at the end.
func autopilotGame(t testing.TB, cfg game.Config, opt replay.Options, steps int, pressure bool, switchEvery int) ([]byte, uint64) {
	t.Helper()
	rec, err := replay.NewRecorder(cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	w := rec.World()
	strategies := pool.Strategies()
	if switchEvery == 0 {
		switchEvery = steps
	}
	for i := 0; i < steps; i += switchEvery {
		if i > 0 {
			s := strategies[(i/switchEvery-1)%len(strategies)]
			if err := rec.SetStrategies(s, s); err != nil {
				t.Fatal(err)
			}
		}
		if err := replay.Autoplay(context.Background(), rec, min(switchEvery, steps-i), pressure); err != nil {
			t.Fatal(err)
		}
	}
	sum := w.Checksum()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes(), sum
}

// stressGame records a minute of the stress mode's game: the pressure
// autopilot on the pressure level set.
func stressGame(t testing.TB) []byte {
	t.Helper()
	b, _ := autopilotGame(t, game.Config{Levels: levels.Pressure(), Seed: 1}, replay.Options{Players: []string{"autopilot"}}, 60*game.TPS, true, 0)
	return b
}

// byHand records a minute of play as a person's hands might: a key
// combination held for 100 to 700 ms, then another, chosen by a fixed
// pseudo-random sequence.
func byHand(t testing.TB, seed uint64) []byte {
	t.Helper()
	rec, err := replay.NewRecorder(game.Config{Seed: seed}, replay.Options{Players: []string{"alice"}})
	if err != nil {
		t.Fatal(err)
	}
	x := seed | 1
	next := func() uint64 { // xorshift64
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	var in game.Inputs
	hold := 0
	for range 60 * game.TPS {
		if rec.World().Phase() == game.GameOver {
			rec.Restart()
		}
		if hold == 0 {
			k := next()
			in[0] = game.Input{Left: k&3 == 1, Right: k&3 == 2, Thrust: k&4 != 0, Fire: k&24 != 0, Hyperspace: k&0x3e0 == 0}
			hold = 6 + int(next()%36)
		}
		hold--
		rec.Step(&in)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes()
}

// events returns the events of a file, failing the test on an error.
func events(t testing.TB, data []byte) []replay.Event {
	t.Helper()
	r, err := replay.NewReader(data)
	if err != nil {
		t.Fatal(err)
	}
	var evs []replay.Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatalf("after %d events: %v", len(evs), err)
		}
		evs = append(evs, ev)
	}
}

// playBack closes rec, a recording kept in memory, and replays it to the
// end, failing the test on any error.
func playBack(t *testing.T, rec *replay.Recorder) *replay.Player {
	t.Helper()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := replay.NewPlayer(rec.Bytes(), "")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return p
}
