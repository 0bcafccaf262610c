package play

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"poolroids/game"
	"poolroids/game/match"
)

// newSolo makes a solo game whose hooks count its steps and keep the games
// that ended; waits says whether the game waits instead of stepping.
func newSolo(t *testing.T, in func() (game.Input, bool)) (*Game, *atomic.Uint64, *[]match.Result) {
	t.Helper()
	var steps atomic.Uint64
	var ended []match.Result
	g, err := NewSolo(game.Config{Seed: 1}, false, "ann", Hooks{
		Input:   in,
		Ended:   func(r match.Result) { ended = append(ended, r) },
		Stepped: func(n uint64) { steps.Store(n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return g, &steps, &ended
}

func none() (game.Input, bool) { return game.Input{}, true }

// TestRunKeepsGameTime: Run steps at game.TPS on its own goroutine, and
// returns when stopped.
func TestRunKeepsGameTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, steps, _ := newSolo(t, none)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			g.Run(stop)
		}()
		time.Sleep(2 * time.Second)
		synctest.Wait()
		// A tick on time is a nanosecond early (the period rounds down): the
		// step it is due comes with the next.
		if got := steps.Load(); got != 2*game.TPS-1 {
			t.Errorf("%d steps in 2s, want %d", got, 2*game.TPS-1)
		}
		close(stop)
		<-done
	})
}

// TestWaitingDoesNotStep: while the front end says the game waits (the
// key help is up, say), the world stands still.
func TestWaitingDoesNotStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, steps, _ := newSolo(t, func() (game.Input, bool) { return game.Input{}, false })
		stop := make(chan struct{})
		go g.Run(stop)
		time.Sleep(time.Second)
		synctest.Wait()
		close(stop)
		var at uint64
		g.ReadWorld(func(w *game.World) { at = w.Steps() })
		if steps.Load() != 0 || at != 0 {
			t.Errorf("waiting, the game took %d steps (world at %d)", steps.Load(), at)
		}
	})
}

// TestEndedCountsThePlayersGame: a game the player plays to its end is
// handed to Hooks.Ended, counted, with its recording, and the Game is on
// the game-over screen.
func TestEndedCountsThePlayersGame(t *testing.T) {
	g, _, ended := newSolo(t, none)
	if !g.Start() || g.Phase() != match.Play {
		t.Fatalf("Start from the title: phase %v", g.Phase())
	}
	for i := 0; len(*ended) == 0; i++ {
		if i > 600*game.TPS {
			t.Fatal("no game over in 10 minutes")
		}
		g.Step(game.Input{Hyperspace: i%30 == 0}) // jumping often loses every ship soon
	}
	r := (*ended)[0]
	if !r.Counts || r.Replay == nil || g.Phase() != match.Over || g.Best() != r.Score {
		t.Errorf("ended %+v (replay %d bytes), phase %v, best %d", r, len(r.Replay), g.Phase(), g.Best())
	}
}

// TestCommandsRefused: outside a game there is nothing to pause or
// leave, and a second Start during one does nothing.
func TestCommandsRefused(t *testing.T) {
	g, _, _ := newSolo(t, none)
	if g.TogglePause() {
		t.Error("paused the title")
	}
	if _, left := g.Leave(); left {
		t.Error("left the title")
	}
	g.Start()
	if g.Start() {
		t.Error("started a game during one")
	}
	if !g.TogglePause() || !g.Paused() {
		t.Error("a game in play did not pause")
	}
}

// TestViewAllocatesNothing: a frame's look at the game is free.
func TestViewAllocatesNothing(t *testing.T) {
	g, _, _ := newSolo(t, none)
	var score int
	fn := func(v View) { score += v.World.Score() }
	if n := testing.AllocsPerRun(100, func() { g.View(fn) }); n != 0 {
		t.Errorf("View allocates %v times", n)
	}
}
