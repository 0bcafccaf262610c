package replay_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// arenaScript records an arena of six slots: players join at staggered
// steps, each flown by an autopilot of its own (every other one holding
// fire), leave now and then, come back after their game is over under a
// new name, and the pools switch strategy midway. It returns the file, the
// final checksum and the names that joined.
func arenaScript(t *testing.T, mode game.Mode, steps int) ([]byte, uint64, []string) {
	t.Helper()
	rec, err := replay.NewRecorder(game.Config{Seed: 21, Ships: 6, Mode: mode}, replay.Options{Every: 128})
	if err != nil {
		t.Fatal(err)
	}
	w := rec.World()
	var pilots [6]game.Autopilot
	var names []string
	joins := 0
	join := func(slot int) {
		name := fmt.Sprintf("p%d-%d", slot, joins)
		joins++
		if err := rec.Join(slot, name); err != nil {
			t.Fatalf("join %s: %v", name, err)
		}
		pilots[slot] = game.Autopilot{Slot: slot, Pressure: slot%2 == 1}
		names = append(names, name)
	}
	var in game.Inputs
	for i := range steps {
		for s := range pilots {
			switch ph := w.Player(s).Phase; {
			case i == 40*s && ph == game.Absent, ph == game.GameOver:
				join(s)
			case i%(300+70*s) == 299 && ph != game.Absent:
				rec.Leave(s)
			case ph == game.Absent && i%(300+70*s) == 120:
				join(s)
			}
		}
		if i == steps/2 {
			if err := rec.SetStrategies(pool.Bitset, pool.Queue); err != nil {
				t.Fatal(err)
			}
		}
		for s := range pilots {
			in[s] = pilots[s].Input(w)
		}
		rec.Step(&in)
	}
	sum := w.Checksum()
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	return rec.Bytes(), sum, names
}

// A recorded multi-player script (joins, leaves, inputs of every slot)
// replays to the same checksums for every strategy, in co-op and PvP.
func TestArenaReplay(t *testing.T) {
	t.Parallel()
	for _, mode := range []game.Mode{game.Coop, game.PvP} {
		t.Run(mode.String(), func(t *testing.T) {
			data, want, names := arenaScript(t, mode, 2400)
			f, err := replay.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Ships != 6 || f.Mode != mode || !reflect.DeepEqual(f.Names, names) {
				t.Errorf("header: %d ships, mode %v, players %q; want 6, %v, %q", f.Ships, f.Mode, f.Names, mode, names)
			}
			if len(names) < 8 {
				t.Errorf("only %d joins: the script should rejoin after leaves and games over", len(names))
			}
			t.Logf("%d joins, %d bytes", len(names), len(data))
			for _, s := range append([]pool.Strategy{""}, pool.Strategies()...) {
				p, err := replay.NewPlayer(data, s)
				if err != nil {
					t.Fatal(err)
				}
				if err := p.Run(context.Background()); err != nil {
					t.Fatalf("strategy %q: %v", s, err)
				}
				if got := p.World().Checksum(); got != want {
					t.Errorf("strategy %q: final checksum %016x, want %016x", s, got, want)
				}
			}
		})
	}
}
