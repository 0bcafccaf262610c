package play

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game/hub"
	"poolroids/game/input"
	"poolroids/game/match"
)

// TestSeatGame: an arena seat's Game never pauses, refuses the stress
// autopilot and leaves nothing for it, follows its ship for nothing, and
// the game left names its arena on the game-over screen.
func TestSeatGame(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, err := hub.New(hub.Config{Size: 2})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		seat, err := h.Join(hub.Request{Arena: "den", Player: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		defer seat.Leave()
		var keys input.Keys
		g := NewSeat(seat, Scoring{Player: "ann"}, Controls{Keys: &keys})
		keys.Down(input.Fire)
		time.Sleep(time.Second)
		g.Observe()

		if g.TogglePause() || g.Paused() {
			t.Error("a seat paused")
		}
		if err := g.ToggleStress(); !errors.Is(err, match.ErrShared) {
			t.Errorf("ToggleStress in an arena = %v, want ErrShared", err)
		}
		if v := view(g); v.Phase != match.Play || v.Over.Change != 0 || v.Stress {
			t.Errorf("after the refused stress: %v, over %+v, stress %v; want the game on, nothing left", v.Phase, v.Over, v.Stress)
		}
		if n := testing.AllocsPerRun(100, func() { g.Observe() }); n != 0 {
			t.Errorf("Observe allocates %v times", n)
		}

		res, left := g.Leave()
		if o := view(g).Over; !left || res.Arena != "den" || o.Entry.Arena != "den" || o.Entry.Name != "ann" {
			t.Errorf("left %v, arena %q; the game-over screen shows %+v; want den's", left, res.Arena, o.Entry)
		}
		g.Close()
	})
}

// TestDailyRefusesStress: the stress autopilot refused in a daily game
// leaves the game in play as it was.
func TestDailyRefusesStress(t *testing.T) {
	g, _ := newDaily(t, newStore(t), "bob", NewBoard(nil, nil))
	g.Start()
	for range 100 {
		g.Tick()
	}
	if err := g.ToggleStress(); !errors.Is(err, match.ErrDaily) {
		t.Errorf("ToggleStress in a daily game = %v, want ErrDaily", err)
	}
	if v := view(g); v.Phase != match.Play || v.Over.Change != 0 || v.World.Steps() != 100 {
		t.Errorf("after the refused stress: %v, over %+v, %d steps; want the game on at 100, nothing left", v.Phase, v.Over, v.World.Steps())
	}
}
