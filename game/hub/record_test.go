package hub

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/replay"
	"poolroids/pool"
)

// recording takes the arena's recording under its lock, with the step
// it was taken at.
func recording(a *Arena) (rec []byte, steps uint64) {
	a.View(func(v ArenaView) { rec, steps = a.Recording(), v.World().Steps() })
	return rec, steps
}

// TestRecording: an arena is recorded from its opening: a recording taken
// while it plays replays and checks to the step it was taken at, with the
// joins (a name too long for a file cut to fit), the leave and the switch.
func TestRecording(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Size: 3})
		var ka keys
		ka.set(game.Input{Fire: true, Left: true})
		long := strings.Repeat("é", 40)
		a := join(t, h, Request{Arena: "den", Player: "ann", Input: ka.get})
		time.Sleep(time.Second)
		b := join(t, h, Request{Arena: "den", Player: long})
		if err := a.SetStrategies(pool.Bitset, ""); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second)
		b.Leave()
		time.Sleep(time.Second)
		data, steps := recording(a.Arena())
		if steps < 3*game.TPS {
			t.Fatalf("the arena took %d steps", steps)
		}
		p, err := replay.NewPlayer(data, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if p.Steps() != steps {
			t.Errorf("the recording plays %d steps, the arena took %d", p.Steps(), steps)
		}
		f := p.File()
		if want := []string{"ann", long[:replay.MaxName]}; !slices.Equal(f.Names, want) {
			t.Errorf("players %q, want %q", f.Names, want)
		}
		var kinds []replay.Kind
		r, err := replay.NewReader(data)
		if err != nil {
			t.Fatal(err)
		}
		for ev, err := r.Next(); err == nil; ev, err = r.Next() {
			if ev.Kind >= replay.Join && ev.Kind <= replay.Switch {
				kinds = append(kinds, ev.Kind)
			}
		}
		if want := []replay.Kind{replay.Join, replay.Join, replay.Switch, replay.Leave}; !slices.Equal(kinds, want) {
			t.Errorf("events %v, want %v", kinds, want)
		}
		a.Leave()
	})
}

// TestNoRecording: a table without Snapshot keeps no recording.
func TestNoRecording(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{NewTable: func(cfg game.Config, _ string) (Table, error) {
			w, err := game.New(cfg)
			return WorldTable{w}, err
		}})
		s := join(t, h, Request{Arena: "den", Player: "ann"})
		time.Sleep(time.Second)
		if data, _ := recording(s.Arena()); data != nil {
			t.Errorf("a world table recorded %d bytes", len(data))
		}
		s.Leave()
	})
}

// TestArenaOfOne: an arena of one ship (serve -arena-size 1) seats its
// player, refuses a second, seats another once the first left, and its
// recording replays. A world of one plays its slot from the start, and
// the first join failed: "its ship is in play".
func TestArenaOfOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHub(t, Config{Size: 1})
		a := join(t, h, Request{Arena: "den", Player: "ann"})
		if _, err := h.Join(Request{Arena: "den", Player: "bob"}); !errors.Is(err, ErrFull) || !strings.HasSuffix(err.Error(), "den has its one player") {
			t.Errorf("a second player in an arena of one: %v, want ErrFull", err)
		}
		time.Sleep(time.Second)
		a.Leave()
		b := join(t, h, Request{Arena: "den", Player: "bob"})
		time.Sleep(time.Second)
		data, steps := recording(b.Arena())
		p, err := replay.NewPlayer(data, "")
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(context.Background()); err != nil || p.Steps() != steps {
			t.Errorf("the recording played %d of %d steps: %v", p.Steps(), steps, err)
		}
		b.Leave()
	})
}
