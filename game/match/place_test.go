package match

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/hub"
)

// TestSeatPlace: what a seat does differently, decided by NewSeat once:
// it does not step the arena's world, never pauses, refuses the stress
// autopilot, and its games carry their arena's name and recording, left
// or ended, within Still.
func TestSeatPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		seat := join(t, newHub(t), "ann", game.Input{Hyperspace: true})
		defer seat.Leave()
		m := NewSeat(seat)
		a := seat.Arena()
		if m.Seat() != seat {
			t.Errorf("Seat() = %v, want the seat", m.Seat())
		}
		var before, after uint64
		a.View(func(v hub.ArenaView) { before = v.World().Steps() })
		if _, ended := m.Step(game.Input{Fire: true}); ended {
			t.Error("a seat's Step ended a game")
		}
		a.View(func(v hub.ArenaView) { after = v.World().Steps() })
		if after != before {
			t.Errorf("a seat's Step stepped the arena's world: %d steps, then %d", before, after)
		}
		if m.TogglePause() || m.Paused() {
			t.Error("a seat paused")
		}
		if err := m.CanStress(); !errors.Is(err, ErrShared) {
			t.Errorf("CanStress in an arena = %v, want ErrShared", err)
		}

		var res Result
		var ended bool
		for !ended {
			time.Sleep(time.Second / 4)
			m.Still(func() { res, ended = m.Observe() })
		}
		if res.Arena != "den" || !res.Counts || res.Replay == nil || m.Current().Phase != game.GameOver {
			t.Errorf("the seat's game over: arena %q, counts %v, replay %d bytes, ship %v; want den's, counted, recorded",
				res.Arena, res.Counts, len(res.Replay), m.Current().Phase)
		}

		for m.Phase() != Play {
			time.Sleep(time.Second / 4)
			m.Still(func() { m.Observe() })
			m.Start()
			m.StartDue()
		}
		var left bool
		m.Still(func() { res, left = m.Leave() })
		if !left || res.Arena != "den" || res.Replay == nil {
			t.Errorf("the seat's game left: %v, arena %q, replay %d bytes; want den's, recorded", left, res.Arena, len(res.Replay))
		}
	})
}

// TestOwnPlace: what a world of one's own does differently: Still calls
// at once, the game pauses, the stress autopilot may play but for a
// daily game, and a game names no arena.
func TestOwnPlace(t *testing.T) {
	m := newMatch(t, game.Config{Seed: 4}, false)
	if m.Seat() != nil || m.Current() != (game.Player{}) {
		t.Errorf("a world of one's own has a seat %v, a seat's ship %+v", m.Seat(), m.Current())
	}
	called := false
	m.Still(func() { called = true })
	if !called {
		t.Error("Still did not call")
	}
	m.Start()
	if !m.TogglePause() || !m.Paused() {
		t.Error("no pause")
	}
	if !m.TogglePause() || m.Paused() {
		t.Error("no resume")
	}
	if err := m.CanStress(); err != nil {
		t.Errorf("CanStress = %v", err)
	}
	res, left := m.Leave()
	if !left || res.Arena != "" {
		t.Errorf("left: %v, arena %q; want one's own", left, res.Arena)
	}

	m.SetDaily()
	for range OverHold + 1 {
		m.Step(game.Input{})
	}
	if !m.Start() || m.Phase() != Play {
		t.Fatalf("no game after the game-over screen: %v", m.Phase())
	}
	if err := m.CanStress(); !errors.Is(err, ErrDaily) {
		t.Errorf("CanStress in a daily game = %v, want ErrDaily", err)
	}
	if err := m.ToggleStress(); !errors.Is(err, ErrDaily) || m.Stress() || m.Phase() != Play {
		t.Errorf("ToggleStress in a daily game = %v, stress %v, %v; want ErrDaily, the game on", err, m.Stress(), m.Phase())
	}
}
